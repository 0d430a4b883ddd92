/**
 * The configured contact sources: `crm` is the CRM at `crmBaseUrl` (none when unset). A real CRM is
 * one more entry here (with its adapter).
 */
import type { IdemConfig } from '../../../src/config/config';
import type { ContactSources } from './contact-source.port';
import { SandboxCrmContactSource } from './sandbox-crm.contact-source';

export function contactSourcesAt(crmBaseUrl: string | undefined): ContactSources {
  const crm = crmBaseUrl ? new SandboxCrmContactSource('crm', crmBaseUrl) : undefined;
  return (name) => (name === 'crm' ? crm : undefined);
}

/**
 * Where the api, the worker and `idem sync` all find the CRM: IDEM_CRM_URL. Without it, development
 * pulls from the sandbox, which hosts the CRM beside the provider (in-process, the bootstrap points
 * `stripeApiBase` at it; else an `npm start`'s on IDEM_SANDBOX_PORT). Production never guesses: the
 * provider's address is Stripe's, not a CRM's, so without IDEM_CRM_URL no pull source is configured.
 */
export function crmUrlOf(config: IdemConfig): string | undefined {
  if (config.contacts.crmUrl) return config.contacts.crmUrl;
  if (config.production) return undefined;
  return config.payments.stripeApiBase ?? `http://127.0.0.1:${config.sandbox.port}`;
}

export const configuredContactSources = (config: IdemConfig): ContactSources => contactSourcesAt(crmUrlOf(config));
