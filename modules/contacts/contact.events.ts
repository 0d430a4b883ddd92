/**
 * Contacts imported from a source system, stream `contact-<source>.<sourceId>` (DESIGN.md §4), and
 * import runs (a push batch, a pull run or a file), stream `import-<runId>`. Type strings are
 * permanent. No contact event was written before these shapes, so the freshness fields could still
 * become optional: a source gives a version, an updatedAt, both or neither.
 */
export const CONTACT_CATEGORY = 'contact';
export const IMPORT_CATEGORY = 'import';

export const contactStream = (source: string, sourceId: string) => `${CONTACT_CATEGORY}-${source}.${sourceId}`;
export const importStream = (runId: string) => `${IMPORT_CATEGORY}-${runId}`;

/** What orders one source record against another (import-contact/freshness.ts). */
export type Freshness = {
  sourceVersion?: number;
  /** RFC 3339, as the source spelled it: compared as an instant at full precision (offset, any fraction). */
  sourceUpdatedAt?: string;
  checksum: string;
  sourceEventId?: string;
};

export interface ContactImported {
  type: 'ContactImported';
  data: Freshness & {
    source: string;
    sourceId: string;
    fields: Record<string, unknown>;
    /** The import (push batch, pull run, file) that brought it, and the record's place in it. */
    runId?: string;
    seq?: number;
  };
}

/** The source deleted the record. Governed by the stale rule like any update; it keeps its freshness. */
export interface ContactDeleted {
  type: 'ContactDeleted';
  data: Freshness & { source: string; sourceId: string; runId?: string; seq?: number };
}

export const IMPORT_OUTCOMES = [
  'imported',
  'updated',
  'unchanged',
  'skipped_stale',
  'duplicate',
  'deleted',
  'rejected',
  'conflict',
] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

export interface ImportRunStarted {
  type: 'ImportRunStarted';
  data: {
    runId: string;
    source: string;
    startedBy: string;
    /** `push` (POST /v1/contacts/import), `pull` (a source adapter) or `file`. */
    kind?: 'push' | 'pull' | 'file';
    /** Pull: only records changed since then (ISO-8601), as far as the source supports it. */
    since?: string;
    /**
     * Pull: which source the name pointed at when the run started (the adapter's identity, e.g. the
     * sandbox CRM's base address `http://127.0.0.1:3100`, never credentials): a driver configured with
     * another one under the same name does not drive the run. Absent in runs recorded before, and in runs
     * of a source that gives none: those are driven against whatever the name points at.
     */
    sourceIdentity?: string;
    /** File: the file's content hash (a changed file is a new run) and its name. */
    contentHash?: string;
    file?: string;
    /** Push with an Idempotency-Key: the request it answered, so a reused key with another body is refused. */
    requestFingerprint?: string;
    /**
     * Push: whether the request had an Idempotency-Key. False: no retry can take the run over, so a run
     * its request left unfinished is ended by a worker (abandon-push.decision.ts). Absent in runs
     * recorded before; their run id tells (push-run.ts).
     */
    idempotencyKey?: boolean;
    /** Push: how many records the batch had (absent in runs recorded before). */
    records?: number;
  };
}
/** A page (or a slice of a file) is done: its records' outcomes were recorded in the same append. */
export interface ImportPageFetched {
  type: 'ImportPageFetched';
  data: {
    runId: string;
    /** Where this page started (null: the first page; a file: the line number). */
    cursor: string | null;
    records: number;
    /** Where the next page starts; null: this was the last. */
    nextCursor?: string | null;
    /** seq of the page's first record in the run. */
    firstSeq?: number;
    /** Records of the page the source contradicted itself on (outcome `conflict`). */
    conflicts?: number;
  };
}
export interface ImportRecordProcessed {
  type: 'ImportRecordProcessed';
  data: {
    runId: string;
    /** The record's place in its run (batch index, page offset, file line): one audit row each. */
    seq: number;
    source: string;
    /** '' for a record without a valid key (import_events keys the per-contact audit query on it). */
    sourceId: string;
    /** A rejected record's key as sent when it was a string but no valid key: what the push answered. */
    sentSourceId?: string;
    eventId?: string;
    sourceVersion?: number;
    sourceUpdatedAt?: string;
    checksum?: string;
    outcome: ImportOutcome;
    /** Why: what a stale record lost to, what a conflict contradicted, what a rejected record lacked. */
    reason?: string;
    /** The contact stream's revision after the record (null: no contact stream, e.g. rejected). */
    revision: number | null;
  };
}
export interface ImportRunCompleted {
  type: 'ImportRunCompleted';
  data: { runId: string; counts: Partial<Record<ImportOutcome, number>> };
}
/** A stop rule hit (a page failing five times in a row, a source that keeps contradicting itself): a human looks. */
export interface ImportRunNeedsReview {
  type: 'ImportRunNeedsReview';
  data: { runId: string; reason: string };
}
/** Someone resumed a stopped run (`idem sync resume`): it goes on from its last recorded page. */
export interface ImportRunResumed {
  type: 'ImportRunResumed';
  data: {
    runId: string;
    by: string;
    /**
     * Pull: the run's source moved (`idem sync resume --source-moved`): an operator said that the CRM the
     * run started with now answers at this address, and the run is driven against it from now on, as if
     * it had started there (it replaces ImportRunStarted.sourceIdentity). Absent: the source is unchanged.
     */
    sourceIdentity?: string;
  };
}
export interface ImportRunFailed {
  type: 'ImportRunFailed';
  data: { runId: string; error: string };
}

export type ContactEvent = ContactImported | ContactDeleted;
export type ImportEvent =
  | ImportRunStarted
  | ImportPageFetched
  | ImportRecordProcessed
  | ImportRunCompleted
  | ImportRunFailed
  | ImportRunNeedsReview
  | ImportRunResumed;
