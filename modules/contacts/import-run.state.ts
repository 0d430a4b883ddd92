/**
 * One import run folded from `import-<runId>`: where it stands (the cursor after its last recorded
 * page), how many records it processed and with which outcomes, and whether it is still running.
 */
import type { ImportEvent, ImportOutcome, ImportPageFetched, ImportRecordProcessed, ImportRunStarted } from './contact.events';
import { isLastPage } from './contact-source/contact-source.port';
import type { FilePosition } from './import-file/file-records';

/** Every status a run can have; the list routes and `idem sync list --status` accept only these. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'needs_review'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A rejected record as its ImportRecordProcessed recorded it. */
export interface FirstRejection {
  seq: number;
  sourceId: string;
  reason?: string;
}

export interface ImportRunState {
  exists: boolean;
  runId: string;
  source: string;
  kind: NonNullable<ImportRunStarted['data']['kind']>;
  started?: ImportRunStarted['data'];
  status: RunStatus;
  /** Where the next page starts (null: at the beginning, at the end once `readToEnd`, or nothing left when completed). */
  cursor: string | null;
  /**
   * The last recorded page was the source's (or the file's) last: nothing is left to read. A run still
   * `running` so had its completion cut off (a page's events go in several appends, and a driver can die
   * between them); its next driver completes it, instead of taking the null cursor for the start and
   * reading everything again.
   */
  readToEnd: boolean;
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
  /** The run's first rejected record, which the stop rule for a run that reads nothing names (nothing-readable.decision.ts). */
  firstRejection?: FirstRejection;
  /**
   * A file run: where the file goes on after the last slice that recorded it (ImportPageFetched.resumeAt),
   * so that a resumed import opens the file there instead of reading every line before it again. Runs
   * recorded before have none, and are read from the start (skipping what is recorded).
   */
  fileResumeAt?: FilePosition;
  reason?: string;
  revision: number;
  startedAt?: string;
  updatedAt?: string;
}

/**
 * Every field is present from the start, optional ones as undefined, so every state has one shape and
 * a copy is V8's fast clone: the fold runs once per recorded record (the run list folds every
 * ImportRecordProcessed), where spreads of differently shaped objects cost ~15 µs per event.
 */
export const initialImportRunState = (): ImportRunState => ({
  exists: false,
  runId: '',
  source: '',
  kind: 'pull',
  started: undefined,
  status: 'running',
  cursor: null,
  readToEnd: false,
  pages: 0,
  processed: 0,
  recordedInPage: 0,
  counts: {},
  conflictPagesInARow: 0,
  firstRejection: undefined,
  fileResumeAt: undefined,
  reason: undefined,
  revision: -1,
  startedAt: undefined,
  updatedAt: undefined,
});

export function evolveImportRun(state: ImportRunState, event: ImportEvent & { metadata?: { recordedAt: string } }): ImportRunState {
  const next = copyOf(state);
  next.revision = state.revision + 1;
  next.updatedAt = event.metadata?.recordedAt ?? state.updatedAt;
  switch (event.type) {
    case 'ImportRunStarted':
      next.exists = true;
      next.runId = event.data.runId;
      next.source = event.data.source;
      next.kind = event.data.kind ?? 'pull';
      next.started = event.data;
      next.startedAt = next.updatedAt;
      return next;
    case 'ImportRecordProcessed': {
      const counts = copyOfCounts(state.counts);
      counts[event.data.outcome] = (counts[event.data.outcome] ?? 0) + 1;
      next.processed = state.processed + 1;
      next.recordedInPage = (state.recordedInPage ?? 0) + 1;
      next.counts = counts;
      if (event.data.outcome === 'rejected' && state.firstRejection === undefined) next.firstRejection = rejectionOf(event.data);
      return next;
    }
    case 'ImportPageFetched':
      next.pages = state.pages + 1;
      next.recordedInPage = 0;
      next.cursor = event.data.nextCursor ?? null;
      // Only an explicit end: ImportPageFetched events without the field say nothing about it. A "" recorded
      // before drivers read it as the end (isLastPage) ends the run too: resumed, it completes instead of
      // reading the source again from its first page.
      next.readToEnd = event.data.nextCursor !== undefined && isLastPage(event.data.nextCursor);
      next.conflictPagesInARow = event.data.conflicts ? state.conflictPagesInARow + 1 : 0;
      // A slice that could not tell where the file goes on keeps the place before it: still before the cursor.
      next.fileResumeAt = resumeAtOf(event) ?? state.fileResumeAt;
      return next;
    case 'ImportRunCompleted':
      next.status = 'completed';
      // Nothing left (a file run completed after its last slice without another, empty, one: import-file.ts).
      next.cursor = null;
      return next;
    case 'ImportRunFailed':
      next.status = 'failed';
      next.reason = event.data.error;
      return next;
    case 'ImportRunNeedsReview':
      next.status = 'needs_review';
      next.reason = event.data.reason;
      return next;
    case 'ImportRunResumed':
      // A resume that moved the run's source (`--source-moved`) makes it the one the run is driven against.
      if (event.data.sourceIdentity !== undefined && state.started)
        next.started = { ...state.started, sourceIdentity: event.data.sourceIdentity };
      next.status = 'running';
      next.reason = undefined;
      next.conflictPagesInARow = 0;
      return next;
  }
}

/**
 * The state field by field, in initialImportRunState's order: every copy has the one shape V8 made for
 * it. A spread (`{ ...state, revision }`) of a state loaded from another shape (a view's, a cached
 * one) cost ~5 µs per event; a cold fold of a 206k-event run spent about a second here.
 */
function copyOf(state: ImportRunState): ImportRunState {
  return {
    exists: state.exists,
    runId: state.runId,
    source: state.source,
    kind: state.kind,
    started: state.started,
    status: state.status,
    cursor: state.cursor,
    readToEnd: state.readToEnd,
    pages: state.pages,
    processed: state.processed,
    recordedInPage: state.recordedInPage,
    counts: state.counts,
    conflictPagesInARow: state.conflictPagesInARow,
    firstRejection: state.firstRejection,
    fileResumeAt: state.fileResumeAt,
    reason: state.reason,
    revision: state.revision,
    startedAt: state.startedAt,
    updatedAt: state.updatedAt,
  };
}

const rejectionOf = ({ seq, sourceId, sentSourceId, reason }: ImportRecordProcessed['data']): FirstRejection => ({
  seq,
  sourceId: sentSourceId ?? sourceId,
  ...(reason !== undefined ? { reason } : {}),
});

/** The counts as they were recorded (only the outcomes seen, in the order first seen: ImportRunCompleted records them so). */
function copyOfCounts(counts: ImportRunState['counts']): ImportRunState['counts'] {
  const copy: ImportRunState['counts'] = {};
  for (const outcome in counts) copy[outcome as ImportOutcome] = counts[outcome as ImportOutcome];
  return copy;
}

/**
 * A file run's ImportPageFetched may carry `resumeAt` (written by import-file.ts beside the fields every
 * page has): where the file goes on after the slice. Read defensively: anything but a well-formed place
 * is no place, and the file is read from the start.
 */
function resumeAtOf(event: { data: object }): FilePosition | undefined {
  const at = (event.data as { resumeAt?: unknown }).resumeAt as Partial<FilePosition> | undefined;
  if (typeof at !== 'object' || at === null || !Number.isSafeInteger(at.byte) || !Number.isSafeInteger(at.line)) return undefined;
  return at as FilePosition;
}

/**
 * What a file run's ImportPageFetched carries besides its page (`run`, written by import-file.ts): the
 * run's state right after that page, as far as the page itself does not tell it. A process that has
 * not loaded the run reads the stream backwards to its last such page and folds only what follows it
 * (run-folds.ts: stateAtLastTotals), instead of every one of its events — one per record. The forward fold
 * ignores it: both must give the same state (import-run-summary.int.spec.ts compares them).
 */
export interface RunTotals {
  started: ImportRunStarted['data'];
  startedAt?: string;
  status: RunStatus;
  reason?: string;
  pages: number;
  processed: number;
  counts: Partial<Record<ImportOutcome, number>>;
  conflictPagesInARow: number;
  firstRejection?: FirstRejection;
  /** The place the run goes on at (this page's, or an earlier page's when this one recorded none). */
  fileResumeAt?: FilePosition;
}

export const totalsOf = (run: ImportRunState): RunTotals => ({
  started: run.started!,
  ...(run.startedAt !== undefined ? { startedAt: run.startedAt } : {}),
  status: run.status,
  ...(run.reason !== undefined ? { reason: run.reason } : {}),
  pages: run.pages,
  processed: run.processed,
  counts: copyOfCounts(run.counts),
  conflictPagesInARow: run.conflictPagesInARow,
  ...(run.firstRejection ? { firstRejection: run.firstRejection } : {}),
  ...(run.fileResumeAt ? { fileResumeAt: run.fileResumeAt } : {}),
});

/**
 * The totals an ImportPageFetched carries, if it carries well-formed ones that say all the fold would.
 * Totals recorded before they carried the run's first rejection cannot say it when the run had one (the
 * stop rule for a run that reads nothing names it): such a page is no place to start the fold from.
 */
export function recordedTotals(data: object): RunTotals | undefined {
  const totals = (data as { run?: Partial<RunTotals> }).run;
  if (typeof totals !== 'object' || totals === null || typeof totals.started !== 'object' || totals.started === null) return undefined;
  if (!Number.isSafeInteger(totals.pages) || !Number.isSafeInteger(totals.processed) || !Number.isSafeInteger(totals.conflictPagesInARow))
    return undefined;
  if (typeof totals.counts !== 'object' || totals.counts === null || !RUN_STATUSES.includes(totals.status!)) return undefined;
  if ((totals.counts.rejected ?? 0) > 0 && totals.firstRejection === undefined) return undefined;
  return totals as RunTotals;
}

/** The run as it stood right after the page `event` (at `revision`), from the totals it carries. */
export function stateAtPage(
  event: ImportPageFetched & { metadata?: { recordedAt: string } },
  revision: number,
  totals: RunTotals,
): ImportRunState {
  // The start's fields as the fold sets them; the rest as the totals and the page say.
  const state = evolveImportRun(initialImportRunState(), { type: 'ImportRunStarted', data: totals.started });
  state.status = totals.status;
  state.cursor = event.data.nextCursor ?? null;
  state.readToEnd = event.data.nextCursor !== undefined && isLastPage(event.data.nextCursor);
  state.pages = totals.pages;
  state.processed = totals.processed;
  state.recordedInPage = 0;
  state.counts = copyOfCounts(totals.counts);
  state.conflictPagesInARow = totals.conflictPagesInARow;
  state.firstRejection = firstRejectionOf(totals.firstRejection);
  state.fileResumeAt = resumeAtOf({ data: { resumeAt: totals.fileResumeAt } });
  state.reason = totals.reason;
  state.revision = revision;
  state.startedAt = totals.startedAt;
  state.updatedAt = event.metadata?.recordedAt;
  return state;
}

/** Totals recorded before they carried the first rejection have none; anything but a well-formed one is none. */
function firstRejectionOf(recorded: unknown): FirstRejection | undefined {
  const at = recorded as Partial<FirstRejection> | undefined;
  if (typeof at !== 'object' || at === null || !Number.isSafeInteger(at.seq) || typeof at.sourceId !== 'string') return undefined;
  return { seq: at.seq!, sourceId: at.sourceId, ...(typeof at.reason === 'string' ? { reason: at.reason } : {}) };
}
