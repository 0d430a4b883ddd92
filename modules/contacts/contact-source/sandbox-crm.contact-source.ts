/**
 * The sandbox CRM (modules/sandbox/crm, our own fake) as a contact source, over HTTP only: product
 * code never imports the sandbox. `GET {baseUrl}/crm/contacts?cursor=&limit=&since=` →
 * `{contacts: [...], nextCursor}`.
 */
import type { ContactPage, ContactSource, PageRequest } from './contact-source.port';

export class SandboxCrmContactSource implements ContactSource {
  constructor(
    readonly name: string,
    private readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async fetchPage({ cursor, limit, since, signal }: PageRequest): Promise<ContactPage> {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}), ...(since ? { since } : {}) });
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const response = await fetch(`${this.baseUrl}/crm/contacts?${query}`, {
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) throw new Error(`${this.name} answered ${response.status} for cursor ${cursor ?? '(start)'}`);
    const body = (await response.json()) as { contacts?: unknown; nextCursor?: unknown };
    if (!Array.isArray(body.contacts) || !(body.nextCursor === null || typeof body.nextCursor === 'string')) {
      throw new Error(`${this.name} answered a page without contacts and nextCursor`);
    }
    return { records: body.contacts, nextCursor: body.nextCursor };
  }
}
