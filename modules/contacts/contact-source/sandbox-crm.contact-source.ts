/**
 * The sandbox CRM (modules/sandbox/crm, our own fake) as a contact source, over HTTP only: product
 * code never imports the sandbox. `GET {baseUrl}/crm/contacts?cursor=&limit=&since=` →
 * `{contacts: [...], nextCursor}`.
 */
import { describeFetchFailure } from '../../../src/errors/fetch-failure';
import type { ContactPage, ContactSource, PageRequest } from './contact-source.port';
import { repeatedKeys } from './page-json';

export class SandboxCrmContactSource implements ContactSource {
  /**
   * Where the pages are asked for, as failures name it (a run's needs-review reason): scheme, host and
   * path, without credentials or query, so that a CLI pointed at the wrong CRM says which one it tried.
   */
  private readonly address: string;
  /**
   * The CRM's base address as a pull run records it (IDEM_CRM_URL's spelling, so that a reason naming it
   * says what to set): scheme, host and path, without credentials, query or a trailing slash.
   */
  readonly identity: string;

  constructor(
    readonly name: string,
    private readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {
    const url = new URL(`${baseUrl}/crm/contacts`);
    this.address = `${url.protocol}//${url.host}${url.pathname}`;
    const base = new URL(baseUrl);
    this.identity = `${base.protocol}//${base.host}${base.pathname.replace(/\/+$/, '')}`;
  }

  async fetchPage({ cursor, limit, since, signal }: PageRequest): Promise<ContactPage> {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}), ...(since ? { since } : {}) });
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const failed = (what: string, cause?: unknown) => new Error(`${this.name} at ${this.address}: ${what}`, { cause });
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/crm/contacts?${query}`, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (error) {
      throw failed(describeFetchFailure(error), error);
    }
    if (!response.ok) throw failed(`answered ${response.status} for cursor ${cursor ?? '(start)'}`);
    let text: string;
    let body: { contacts?: unknown; nextCursor?: unknown };
    try {
      text = await response.text();
      body = JSON.parse(text) as typeof body;
    } catch (error) {
      throw failed(`answered a page that is not JSON: ${describeFetchFailure(error)}`, error);
    }
    if (
      typeof body !== 'object' ||
      body === null ||
      !Array.isArray(body.contacts) ||
      !(body.nextCursor === null || typeof body.nextCursor === 'string')
    ) {
      throw failed('answered a page without contacts and nextCursor');
    }
    const repeated = repeatedKeys(text);
    if (repeated.envelope !== undefined) throw failed(`answered a page that names ${repeated.envelope} twice`);
    return { records: body.contacts, nextCursor: body.nextCursor, ...(repeated.records.size ? { unreadable: repeated.records } : {}) };
  }
}
