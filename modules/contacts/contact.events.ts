/**
 * Contacts imported from a source system, stream `contact-<source>.<sourceId>` (DESIGN.md §4), and
 * pull-import runs, stream `import-<runId>`. Type strings are permanent.
 */
export const CONTACT_CATEGORY = 'contact';
export const IMPORT_CATEGORY = 'import';

export const contactStream = (source: string, sourceId: string) => `${CONTACT_CATEGORY}-${source}.${sourceId}`;
export const importStream = (runId: string) => `${IMPORT_CATEGORY}-${runId}`;

export interface ContactImported {
  type: 'ContactImported';
  data: {
    source: string;
    sourceId: string;
    sourceVersion: number;
    sourceUpdatedAt: string; // ISO-8601
    checksum: string;
    sourceEventId?: string;
    fields: Record<string, unknown>;
    /** The import run that brought it, if it came through a pull import. */
    runId?: string;
  };
}

export interface ImportRunStarted {
  type: 'ImportRunStarted';
  data: { runId: string; source: string; startedBy: string };
}
export interface ImportPageFetched {
  type: 'ImportPageFetched';
  data: { runId: string; cursor: string | null; records: number };
}
export interface ImportRecordProcessed {
  type: 'ImportRecordProcessed';
  data: {
    runId: string;
    sourceId: string;
    eventId?: string;
    sourceUpdatedAt?: string;
    checksum?: string;
    outcome: 'imported' | 'updated' | 'unchanged' | 'skipped_stale' | 'duplicate';
  };
}
export interface ImportRunCompleted {
  type: 'ImportRunCompleted';
  data: { runId: string; counts: Record<string, number> };
}
export interface ImportRunFailed {
  type: 'ImportRunFailed';
  data: { runId: string; error: string };
}

export type ContactEvent = ContactImported;
export type ImportEvent = ImportRunStarted | ImportPageFetched | ImportRecordProcessed | ImportRunCompleted | ImportRunFailed;
