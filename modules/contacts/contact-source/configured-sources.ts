/**
 * The configured contact sources: `crm` is the CRM at `crmBaseUrl` (none when unset) — in development the sandbox
 * CRM on the sandbox's port. A real CRM is one more entry here (with its adapter).
 */
import type { ContactSources } from './contact-source.port';
import { SandboxCrmContactSource } from './sandbox-crm.contact-source';

export function contactSourcesAt(crmBaseUrl: string | undefined): ContactSources {
  const crm = crmBaseUrl ? new SandboxCrmContactSource('crm', crmBaseUrl) : undefined;
  return (name) => (name === 'crm' ? crm : undefined);
}
