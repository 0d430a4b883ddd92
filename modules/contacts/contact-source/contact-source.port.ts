/**
 * Where a pull run reads records from. A source pages through its records with an opaque cursor
 * (null: the first page); a real CRM is one more adapter of this port.
 */
export interface ContactPage {
  /** Raw records, checked one by one by the run (an invalid one is `rejected`, the page goes on). */
  records: unknown[];
  /** Where the next page starts; null (or "": isLastPage) after the last page. */
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
  /**
   * Which source this adapter reads, stable across processes and safe to record (no credentials, no
   * query tokens): the sandbox CRM's is its base address, as IDEM_CRM_URL spells it. A pull run records it
   * when it starts, and a driver configured with another identity under the same name refuses to drive
   * the run (record-page.decision.ts: decideSourceMoved), so a run never finishes against a CRM it did
   * not start with. Every adapter of a real source gives one; a source without one (test stubs) cannot
   * be told apart, and runs started with it record none.
   */
  readonly identity?: string;
  /** Throws on any failure (5xx, timeout, dropped connection): the run retries the page with backoff. */
  fetchPage(request: PageRequest): Promise<ContactPage>;
}

/**
 * Whether a page's `nextCursor` says that no page follows: null, or the empty string. A cursor is an
 * opaque token of where a page starts, and "" names no place: CRMs whose cursor is a string field
 * (protobuf-style APIs) answer "" on their last page, and the first page is asked for without a cursor
 * (the sandbox CRM, and this port's null). Followed, "" asked for the first page again, and the run went
 * round until its loop rule stopped it as `needs_review`. The run's fold (import-run.state.ts) and its
 * driver (record-page.decision.ts: nextCursorOf) both read the end of a source with this rule.
 */
export const isLastPage = (nextCursor: string | null): boolean => nextCursor === null || nextCursor === '';

/** Finds the adapter of a configured source by name; undefined for an unknown one. */
export type ContactSources = (name: string) => ContactSource | undefined;

export const CONTACT_SOURCES_PORT = Symbol('CONTACT_SOURCES_PORT');
