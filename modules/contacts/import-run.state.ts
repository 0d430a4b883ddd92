/**
 * One import run folded from `import-<runId>`: where it stands (the cursor after its last recorded
 * page), how many records it processed and with which outcomes, and whether it is still running.
 */
import type { ImportEvent, ImportOutcome, ImportRunStarted } from './contact.events';

/** Every status a run can have; the list routes and `idem sync list --status` accept only these. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'needs_review'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface ImportRunState {
  exists: boolean;
  runId: string;
  source: string;
  kind: NonNullable<ImportRunStarted['data']['kind']>;
  started?: ImportRunStarted['data'];
  status: RunStatus;
  /** Where the next page starts (null: at the beginning, or nothing left when completed). */
  cursor: string | null;
  pages: number;
  processed: number;
  /**
   * Records of the page in flight already recorded: a page's events go in appends that fit the
   * store's limit, and a driver that died between them left this many; the page's ImportPageFetched
   * resets it. A resumed driver fetches the page again and records only the rest.
   */
  recordedInPage: number;
  counts: Partial<Record<ImportOutcome, number>>;
  /** Pages in a row, up to the last recorded one, on which the source contradicted itself. */
  conflictPagesInARow: number;
  reason?: string;
  revision: number;
  startedAt?: string;
  updatedAt?: string;
}

export const initialImportRunState = (): ImportRunState => ({
  exists: false,
  runId: '',
  source: '',
  kind: 'pull',
  status: 'running',
  cursor: null,
  pages: 0,
  processed: 0,
  recordedInPage: 0,
  counts: {},
  conflictPagesInARow: 0,
  revision: -1,
});

export function evolveImportRun(state: ImportRunState, event: ImportEvent & { metadata?: { recordedAt: string } }): ImportRunState {
  const next = { ...state, revision: state.revision + 1, updatedAt: event.metadata?.recordedAt ?? state.updatedAt };
  switch (event.type) {
    case 'ImportRunStarted':
      return {
        ...next,
        exists: true,
        runId: event.data.runId,
        source: event.data.source,
        kind: event.data.kind ?? 'pull',
        started: event.data,
        startedAt: next.updatedAt,
      };
    case 'ImportRecordProcessed':
      return {
        ...next,
        processed: state.processed + 1,
        recordedInPage: (state.recordedInPage ?? 0) + 1,
        counts: { ...state.counts, [event.data.outcome]: (state.counts[event.data.outcome] ?? 0) + 1 },
      };
    case 'ImportPageFetched':
      return {
        ...next,
        pages: state.pages + 1,
        recordedInPage: 0,
        cursor: event.data.nextCursor ?? null,
        conflictPagesInARow: event.data.conflicts ? state.conflictPagesInARow + 1 : 0,
      };
    case 'ImportRunCompleted':
      return { ...next, status: 'completed' };
    case 'ImportRunFailed':
      return { ...next, status: 'failed', reason: event.data.error };
    case 'ImportRunNeedsReview':
      return { ...next, status: 'needs_review', reason: event.data.reason };
    case 'ImportRunResumed':
      return { ...next, status: 'running', reason: undefined, conflictPagesInARow: 0 };
  }
}
