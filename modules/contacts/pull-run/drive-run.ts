/**
 * Drives one import run page by page until it completes or a stop rule stops it. The run's stream is
 * the only state: every step starts from its fold, and every append carries the revision it was
 * decided on, so a second driver loses its append and stops. With `locks` (every process that drives
 * runs on its own: worker, api, `idem sync`), a driver first takes the run's lock (run-lock.ts), so a
 * run another live process drives is not driven at all (RunDrivenElsewhere), and every append of the
 * driver is fenced by it (fenced-store.ts): one driver per run, and a woken one writes nothing. In one
 * process, a run already being driven is not driven twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { toEventToAppend } from '../../../src/command-handling/event-to-append';
import { appendLinkedInChunks } from '../../../src/command-handling/append-linked';
import type { CommandContext } from '../../../src/command-handling/handle-command';
import { WrongExpectedVersion } from '../../../src/event-store/errors';
import type { EventStore, EventToAppend } from '../../../src/event-store/event-store.port';
import { importStream, type ImportEvent } from '../contact.events';
import type { ContactPage, ContactSources } from '../contact-source/contact-source.port';
import { evolveImportRun, initialImportRunState, type ImportRunState } from '../import-run.state';
import { importItems, throwIfNotStored } from '../import-contacts/import-records';
import { fencedStore } from './fenced-store';
import { pageItems } from './page-items';
import { RunDrivenElsewhere, RunNotHeld, type RunLocks } from './run-lock';
import { foldedWith, keepRun, knownRun, stateAtLastTotals, withTotals } from './run-folds';
import {
  decideFetchGaveUp,
  decideNothingLeftToRead,
  decidePage,
  decideSourceMissing,
  decideSourceMoved,
  decideUnrecordableCursor,
  MAX_FETCH_ATTEMPTS,
  nextCursorOf,
  pageStart,
} from './record-page.decision';

export interface RunDriverDeps {
  store: EventStore;
  sources: ContactSources;
  /** Records per page (default DEFAULT_PAGE_SIZE). */
  pageSize?: number;
  /** First retry delay; doubles each time (default 500 ms). */
  backoffMs?: number;
  metadata: CommandContext['metadata'];
  /** Called after each recorded page (progress bars, logs). */
  onPage?: (run: ImportRunState) => void;
  /**
   * Stops driving between pages (a page already imported is recorded first) and cuts a page's retries
   * short (process shutdown); the run stays `running` for the next worker.
   */
  signal?: AbortSignal;
  /** Called when a page's records are imported and its outcomes not yet recorded (crash tests stop here). */
  beforeRecordingPage?: (run: ImportRunState) => Promise<void>;
  /** Called when a page is fetched and none of its records imported yet (the fencing test freezes a driver here). */
  beforeImportingPage?: (run: ImportRunState) => Promise<void>;
  /**
   * The runs' locks (run-lock.ts): the driver takes its run's lock, or throws RunDrivenElsewhere, and
   * appends only while it holds it. Without them the caller answers for there being one driver (tests).
   */
  locks?: RunLocks;
}

/** A driver's deps while it drives: `writes` is the store its appends go to (fenced by the run's lock). */
type DrivingDeps = RunDriverDeps & { writes: EventStore };

/** A push batch's limit too: a page costs one run append and one import of its records, whatever its size. */
export const DEFAULT_PAGE_SIZE = 1000;

const driving = new Map<string, Promise<ImportRunState>>();

/**
 * Events of a run read per query while it is folded. A run's stream holds an event per record: a file
 * of 2,000,000 lines is a stream of 2,000,000 events, and read in one query they were all in memory at
 * once (the rows, then the events) — in the import resuming after a kill, in `idem sync status`, and in
 * the api answering GET /v1/sync/runs/{runId}, whose heap is limited to 256 MiB.
 */
export const RUN_READ_PAGE = 5000;

/**
 * The run folded from its stream, a page of events at a time, never more than `pageSize` held at once.
 * Reads only what was appended since this process last loaded it; a run it has not loaded starts from
 * its last page's totals (run-folds.ts: stateAtLastTotals), so a driver resuming a long run, the api's
 * GET after a restart and `idem sync status` read about a page of it, not one event per record.
 */
export async function loadRun(store: EventStore, runId: string, pageSize = RUN_READ_PAGE): Promise<ImportRunState> {
  let run = knownRun(store, runId) ?? (await stateAtLastTotals(store, runId, pageSize)) ?? initialImportRunState();
  for (;;) {
    const events = await store.readStream(importStream(runId), { fromRevision: run.revision + 1, maxCount: pageSize });
    run = foldedWith(run, events);
    if (events.length < pageSize) break;
  }
  keepRun(store, run);
  return run;
}

/** Whether this process is driving the run right now. */
export const isDrivenHere = (runId: string): boolean => driving.has(runId);

export function driveRun(deps: RunDriverDeps, runId: string): Promise<ImportRunState> {
  const running = driving.get(runId);
  if (running) return running;
  const drive = driveLoop(deps, runId).finally(() => driving.delete(runId));
  driving.set(runId, drive);
  return drive;
}

async function driveLoop(deps: RunDriverDeps, runId: string): Promise<ImportRunState> {
  const held = await deps.locks?.take(runId);
  if (deps.locks && !held) throw new RunDrivenElsewhere(runId, await deps.locks.holder(runId).catch(() => undefined));
  // Ends the prefetched page's request and retries whenever this driver stops, whatever stops it,
  // and as soon as its lock session is gone (its next append would be refused anyway).
  const stopped = new AbortController();
  void held?.lost.then(() => stopped.abort());
  const signal = deps.signal ? AbortSignal.any([deps.signal, stopped.signal]) : stopped.signal;
  try {
    return await drivePages({ ...deps, writes: held ? fencedStore(deps.store, held) : deps.store }, runId, signal);
  } catch (error) {
    // Another driver holds the run now: this one stops as a driver that lost its append does.
    if (error instanceof RunNotHeld) return loadRun(deps.store, runId);
    throw error;
  } finally {
    stopped.abort();
    await held?.release();
  }
}

async function drivePages(deps: DrivingDeps, runId: string, signal: AbortSignal): Promise<ImportRunState> {
  // The run is read once; after that this driver folds what it appends itself. Its appends carry the
  // revision they were decided on, so the fold stays exactly the stream: another writer makes the
  // next append conflict, and this driver stops. (Re-reading the run per page read its whole
  // history — one event per record — on every page: quadratic in the run's size.)
  let run = await loadRun(deps.store, runId);
  const fetchFrom = (cursor: string | null) => fetchWithRetries(deps, run, cursor, signal);
  let fetching: Promise<Fetched> | undefined;
  // The cursors pages began from, as this driver saw them: a next cursor among them is a loop (record-page.decision.ts).
  const began = new Set<string | null>();
  // A page's outcomes are written while the next page's records are imported (a page's write was about
  // 40 % of its time). `run` then already folds them in; the next page's own outcomes are written only
  // after them, and the next page counts only once they are. A driver that stops, or dies, with the next
  // page imported and not recorded leaves what a crash between a page's imports and its write leaves: the
  // next driver imports those records again and each gets the outcome it got the first time
  // (judgeContact: the run and seq already applied).
  let writing: Promise<WriteOutcome> | undefined;
  /** Waits for the page being written: false when another driver recorded first (this one stops). */
  const written = async (): Promise<boolean> => {
    if (!writing) return true;
    const outcome = await writing;
    writing = undefined;
    if ('error' in outcome) throw outcome.error;
    if (outcome.written) deps.onPage?.(run);
    return outcome.written;
  };
  const stopWith = async (): Promise<ImportRunState> => ((await written()) ? run : loadRun(deps.store, runId));
  for (;;) {
    if (!run.exists || run.status !== 'running' || run.kind !== 'pull' || signal.aborted) return stopWith();
    if (run.readToEnd) {
      if (!(await written())) return loadRun(deps.store, runId);
      const completed = await appendRunEvents(deps, run, [decideNothingLeftToRead(run)]);
      if (!completed) return loadRun(deps.store, runId);
      run = completed;
      deps.onPage?.(run);
      continue;
    }
    const fetched = await (fetching ?? fetchFrom(run.cursor));
    // A fetch cut short by a shutdown is no failure of the source: the run stays running.
    if (!('page' in fetched) && signal.aborted) return stopWith();
    // The next page is fetched while this one is imported and recorded: fetching has no effect, and
    // the next page still counts only once its own records and cursor are recorded. If this page
    // ends the run (or the driver), the fetched page is simply dropped.
    // A next cursor the run cannot record stops it before anything of the page is imported.
    const unrecordable = 'page' in fetched ? decideUnrecordableCursor(run, fetched.page.nextCursor) : undefined;
    const nextCursor = 'page' in fetched && !unrecordable ? fetched.page.nextCursor : null;
    began.add(run.cursor);
    const loops = nextCursor !== null && began.has(nextCursor);
    fetching = nextCursor !== null && !loops ? fetchFrom(nextCursor) : undefined;
    const events = unrecordable
      ? [unrecordable]
      : 'page' in fetched
        ? await importPage(deps, run, fetched.page, loops)
        : 'refused' in fetched
          ? [fetched.refused]
          : [decideFetchGaveUp(run, MAX_FETCH_ATTEMPTS, fetched.error)];
    if (!(await written())) return loadRun(deps.store, runId);
    await deps.beforeRecordingPage?.(run);
    const prepared = prepareRunEvents(deps, run, events);
    // Settled, never rejected, until awaited: the next page's import runs meanwhile.
    writing = writeRunEvents(deps, run, prepared).then(
      (written) => ({ written }),
      (error: unknown) => ({ error }),
    );
    run = prepared.recorded;
    // A page after which no next page is imported (the run ended, or there is none to fetch) is awaited here.
    if (run.status !== 'running' || !fetching) {
      if (!(await written())) return loadRun(deps.store, runId);
    }
  }
}

type WriteOutcome = { written: boolean } | { error: unknown };

async function importPage(deps: DrivingDeps, run: ImportRunState, page: ContactPage, nextCursorSeen: boolean): Promise<ImportEvent[]> {
  await deps.beforeImportingPage?.(run);
  const { firstSeq, recorded } = pageStart(run);
  const items = pageItems(page, firstSeq).slice(recorded);
  const results = await importItems(deps.writes, run.source, run.runId, items, { ...deps.metadata, correlationId: run.runId });
  throwIfNotStored(results);
  return withTotals(run, decidePage(run, { cursor: run.cursor, nextCursor: page.nextCursor, results, nextCursorSeen }));
}

/** A page, with its next cursor as the run reads it (nextCursorOf); or why none was fetched. */
type Fetched = { page: ContactPage } | { error: string } | { refused: ImportEvent };

/**
 * Never rejects: a page the source keeps failing is answered with its last error; a source the run
 * cannot be driven against is not asked at all, and answered with the run's needs-review: none is
 * configured here under the run's source name (any more), or the one configured is another source
 * than the run started with (decideSourceMoved). A run started with `since` asks for the records
 * changed since then on every page, resumed or not.
 */
async function fetchWithRetries(deps: RunDriverDeps, run: ImportRunState, cursor: string | null, signal: AbortSignal): Promise<Fetched> {
  const source = deps.sources(run.source);
  if (!source) return { refused: decideSourceMissing(run) };
  const moved = decideSourceMoved(run, source);
  if (moved) return { refused: moved };
  const request = { cursor, limit: deps.pageSize ?? DEFAULT_PAGE_SIZE, since: run.started?.since, signal };
  let error = 'the driver stopped';
  for (let attempt = 1; attempt <= MAX_FETCH_ATTEMPTS && !signal.aborted; attempt++) {
    try {
      const page = await source.fetchPage(request);
      return { page: { ...page, nextCursor: nextCursorOf(page) } };
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      if (attempt < MAX_FETCH_ATTEMPTS) await backoff((deps.backoffMs ?? 500) * 2 ** (attempt - 1), signal);
    }
  }
  return { error };
}

/** Waits before a retry; a stopping driver does not wait. */
const backoff = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }).catch(() => undefined);

/** A run's events ready to append: with their metadata, and the run as it stands once they are written. */
interface PreparedRunEvents {
  toAppend: EventToAppend[];
  recorded: ImportRunState;
}

function prepareRunEvents(deps: Pick<RunDriverDeps, 'metadata'>, run: ImportRunState, events: ImportEvent[]): PreparedRunEvents {
  const stream = importStream(run.runId);
  const recordedAt = new Date().toISOString();
  const metadata = { ...deps.metadata, correlationId: run.runId };
  const toAppend = events.map((event, i) => toEventToAppend(stream, { event, key: `page/${run.revision}/${i}` }, metadata, recordedAt));
  const recorded = events.reduce((state, event, i) => evolveImportRun(state, { ...event, metadata: toAppend[i].metadata }), run);
  return { toAppend, recorded };
}

/**
 * Appends at the run's revision (to `writes`, the fenced store, while driving): false when another
 * driver recorded first (if it recorded part of the events, the next driver's fold sees which: pageStart).
 */
async function writeRunEvents(
  deps: Pick<RunDriverDeps, 'store'> & { writes?: EventStore },
  run: ImportRunState,
  prepared: PreparedRunEvents,
): Promise<boolean> {
  try {
    // A page of long records outgrows one append; its events go in several, each at the revision the one before left.
    await appendLinkedInChunks(deps.writes ?? deps.store, importStream(run.runId), prepared.toAppend, run.revision);
  } catch (error) {
    if (error instanceof WrongExpectedVersion) return false;
    throw error;
  }
  keepRun(deps.store, prepared.recorded);
  return true;
}

/**
 * Appends at the run's revision and answers the run with `events` folded in (what the stream now
 * holds), or undefined when another driver recorded first (this one stops; if it recorded part of
 * the events, the next driver's fold of the stream sees which: pageStart).
 */
export async function appendRunEvents(
  deps: Pick<RunDriverDeps, 'store' | 'metadata'> & { writes?: EventStore },
  run: ImportRunState,
  events: ImportEvent[],
): Promise<ImportRunState | undefined> {
  const prepared = prepareRunEvents(deps, run, events);
  return (await writeRunEvents(deps, run, prepared)) ? prepared.recorded : undefined;
}
