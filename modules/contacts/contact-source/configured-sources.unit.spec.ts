import { loadConfig } from '../../../src/config/config';
import { crmUrlOf } from './configured-sources';

const production = (env: Record<string, string>) =>
  loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://idem@db:5432/idem',
    IDEM_TOKENS: 'sync=a-sync-token-of-16-chars',
    IDEM_WEBHOOK_SECRET: 'whsec_test',
    STRIPE_SECRET_KEY: 'sk_live_test',
    ...env,
  });

describe('the CRM pull runs page through (crmUrlOf)', () => {
  it('is IDEM_CRM_URL when set, in production and development', () => {
    expect(crmUrlOf(production({ IDEM_CRM_URL: 'https://crm.example.com' }))).toBe('https://crm.example.com');
    expect(crmUrlOf(loadConfig({ IDEM_CRM_URL: 'http://localhost:4000' }))).toBe('http://localhost:4000');
  });

  it('is none in production without IDEM_CRM_URL: never the provider (Stripe)', () => {
    expect(crmUrlOf(production({ STRIPE_API_BASE: 'https://api.stripe.com' }))).toBeUndefined();
    expect(crmUrlOf(production({}))).toBeUndefined();
  });

  it('is the sandbox in development: where the provider sandbox runs, else IDEM_SANDBOX_PORT', () => {
    expect(crmUrlOf(loadConfig({ IDEM_SANDBOX_PORT: '3999' }))).toBe('http://127.0.0.1:3999');
    expect(crmUrlOf(loadConfig({ IDEM_SANDBOX: 'false', STRIPE_API_BASE: 'http://127.0.0.1:4100' }))).toBe('http://127.0.0.1:4100');
  });

  it('refuses an IDEM_CRM_URL that is no http(s) base URL', () => {
    expect(() => loadConfig({ IDEM_CRM_URL: 'crm.example.com' })).toThrow(/IDEM_CRM_URL/);
  });
});
