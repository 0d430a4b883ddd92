import { loadConfig } from '../../../src/config/config';
import { configuredContactSources } from './configured-sources';
import { SandboxCrmContactSource } from './sandbox-crm.contact-source';

describe('the sandbox CRM source identity (what a pull run records of its source)', () => {
  it('is the base address IDEM_CRM_URL names, as it spells it', () => {
    expect(new SandboxCrmContactSource('crm', 'https://crm.example.com').identity).toBe('https://crm.example.com');
    expect(new SandboxCrmContactSource('crm', 'http://127.0.0.1:3100').identity).toBe('http://127.0.0.1:3100');
  });

  it('never holds the credentials of a URL that carries them', () => {
    const source = new SandboxCrmContactSource('crm', 'https://export:s3cret-token@crm.example.com:8443');
    expect(source.identity).toBe('https://crm.example.com:8443');
    expect(source.identity).not.toMatch(/s3cret|export/);
  });

  it('drops a query and a fragment, and a trailing slash, so one CRM has one identity', () => {
    expect(new SandboxCrmContactSource('crm', 'https://crm.example.com/?api_key=k1#x').identity).toBe('https://crm.example.com');
    expect(new SandboxCrmContactSource('crm', 'https://crm.example.com/').identity).toBe('https://crm.example.com');
  });

  it('is the same for the configured crm however IDEM_CRM_URL ends, and differs between two CRMs', () => {
    const identityOf = (url: string) => configuredContactSources(loadConfig({ IDEM_CRM_URL: url }))('crm')?.identity;
    expect(identityOf('http://crm-a.internal:3100/')).toBe(identityOf('http://crm-a.internal:3100'));
    expect(identityOf('http://crm-a.internal:3100')).not.toBe(identityOf('http://crm-b.internal:3100'));
  });
});
