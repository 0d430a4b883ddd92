/**
 * Where a pull run reads records from. A source pages through its records with an opaque cursor
 * (null: the first page); a real CRM is one more adapter of this port.
 */
export interface ContactPage {
  /** Raw records, checked one by one by the run (an invalid one is `rejected`, the page goes on). */
  records: unknown[];
  /** Where the next page starts; null after the last page. */
  nextCursor: string | null;
  /**
   * Records (by index in `records`) the adapter could not read as the source meant them (a JSON name
   * repeated in one object), with the reason: each is `rejected` with it, and the page goes on.
   */
  unreadable?: ReadonlyMap<number, string>;
}

export interface PageRequest {
  /** Where the page starts, as the previous page said (null: the first page). */
  cursor: string | null;
  limit: number;
  /** ISO-8601: only records changed at or after it (the run's `since`, resumed runs included); absent: every record. */
  since?: string;
  /** Aborted when the run's driver stops: the request is dropped. */
  signal?: AbortSignal;
}

export interface ContactSource {
  readonly name: string;
  /** Throws on any failure (5xx, timeout, dropped connection): the run retries the page with backoff. */
  fetchPage(request: PageRequest): Promise<ContactPage>;
}

/** Finds the adapter of a configured source by name; undefined for an unknown one. */
export type ContactSources = (name: string) => ContactSource | undefined;

export const CONTACT_SOURCES_PORT = Symbol('CONTACT_SOURCES_PORT');
