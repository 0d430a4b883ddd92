/**
 * The folded state of the import runs this process has loaded, per store, so that loading a run again
 * reads only the events appended since. A run's stream holds one event per record, and its status is
 * polled while it runs (GET /v1/sync/runs/{runId}, `idem sync status`): re-reading and re-folding
 * the whole stream on every poll cost the store more than the run itself (a 20,000-record run was
 * read 26 times, 176,000 events, two thirds of the database's time). The fold stays exact: streams
 * are append-only, so the state at revision N plus the events after N is the state of the stream.
 */
import type { EventStore, RecordedEvent } from '../../../src/event-store/event-store.port';
import { importStream, type ImportEvent, type ImportPageFetched } from '../contact.events';
import type { FilePosition } from '../import-file/file-records';
import { evolveImportRun, recordedTotals, stateAtPage, totalsOf, type ImportRunState } from '../import-run.state';

/** Enough for every run a process drives or watches at once; the oldest loaded is forgotten first. */
const MAX_RUNS_PER_STORE = 1000;

const byStore = new WeakMap<EventStore, Map<string, ImportRunState>>();

export function knownRun(store: EventStore, runId: string): ImportRunState | undefined {
  return byStore.get(store)?.get(runId);
}

/** Keeps `run` unless a fold at a later revision is already kept (two loads may overlap). */
export function keepRun(store: EventStore, run: ImportRunState): void {
  if (!run.exists) return;
  let runs = byStore.get(store);
  if (!runs) byStore.set(store, (runs = new Map()));
  const kept = runs.get(run.runId);
  if (kept && kept.revision >= run.revision) return;
  runs.delete(run.runId);
  runs.set(run.runId, run);
  if (runs.size > MAX_RUNS_PER_STORE) runs.delete(runs.keys().next().value!);
}

/**
 * Events read backwards from a run's end looking for its last page that carries the run's totals: every
 * page of a pull run and slice of a file run records them (withTotals), so at most a page's outcomes
 * (1,000 records, or 500 of a slice) and the run's end come after the last one.
 */
export const SUMMARY_LOOKBACK = 2000;

/**
 * The run from its last page that carries its totals (ImportPageFetched.run, import-run.state.ts) and
 * the events after it, for a process that has not loaded the run: two reads of at most
 * SUMMARY_LOOKBACK events instead of one event per record (a cold fold of a 206k-event run took
 * seconds, of a 2,000,000-line file's run most of a minute). Undefined when the run is kept here
 * already (loadRun reads only what was appended since) or no such page is near its end (a run
 * recorded before its pages carried totals — file runs before slices did, pull runs before pages did —
 * or a push: loadRun folds it whole). Kept like loadRun's folds.
 */
export async function summarizedRun(store: EventStore, runId: string): Promise<ImportRunState | undefined> {
  if (knownRun(store, runId)) return undefined;
  const tail = await store.readStream(importStream(runId), { direction: 'backwards', maxCount: SUMMARY_LOOKBACK });
  const at = tail.findIndex((e) => e.type === 'ImportPageFetched' && recordedTotals(e.data) !== undefined);
  if (at < 0) return undefined;
  const page = tail[at] as unknown as ImportPageFetched & RecordedEvent & { metadata: { recordedAt: string } };
  let run = stateAtPage(page, page.revision, recordedTotals(page.data)!);
  for (const event of tail.slice(0, at).reverse())
    run = evolveImportRun(run, event as unknown as ImportEvent & { metadata: { recordedAt: string } });
  keepRun(store, run);
  return run;
}

/**
 * A page's events with the run's totals right after the page on its ImportPageFetched (`run`: RunTotals),
 * which summarizedRun reads back, and, for a file slice, where the file goes on after it (`resumeAt`).
 * Pull pages and file slices both carry them, so a process that never loaded a long run (the api's
 * GET /v1/sync/runs/{runId}, `idem sync status`) reads its end instead of folding its whole stream.
 */
export function withTotals(run: ImportRunState, events: ImportEvent[], resumeAt?: FilePosition): ImportEvent[] {
  let state = run;
  return events.map((event) => {
    if (event.type !== 'ImportPageFetched') {
      state = evolveImportRun(state, event);
      return event;
    }
    const placed = resumeAt ? { ...event, data: { ...event.data, resumeAt } } : event;
    state = evolveImportRun(state, placed);
    return { ...placed, data: { ...placed.data, run: totalsOf(state) } };
  });
}
