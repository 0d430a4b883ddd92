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
import { evolveImportRun, initialImportRunState, recordedTotals, stateAtPage, totalsOf, type ImportRunState } from '../import-run.state';

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
 * Events read backwards from a run's end, at most, looking for its last page that carries the run's
 * totals: every page of a pull run and slice of a file run records them (withTotals), so at most a
 * page's outcomes (1,000 records, or 500 of a slice: a driver killed between the appends that record
 * one) and the run's end come after the last one.
 */
export const SUMMARY_LOOKBACK = 2000;

/** The first read back: a run is mostly stopped right after a page, its completion or review, or a resume. */
const FIRST_LOOK = 64;

/** `run` with `events` (the ones right after it, in order) folded in. */
export const foldedWith = (run: ImportRunState, events: RecordedEvent[]): ImportRunState =>
  events.reduce((state, e) => evolveImportRun(state, e as unknown as ImportEvent & { metadata: { recordedAt: string } }), run);

/**
 * The run as it stood after its last page that carries its totals (ImportPageFetched.run,
 * import-run.state.ts), and after the events that follow that page when they fit in `maxHeld`, for a
 * process that has not loaded the run: what a resumed driver needs (the page's cursor or file place,
 * the counts, the stop rules' counters, which records of the page in flight are recorded) without
 * folding the run's whole stream, one event per record (a resumed 1,000,000-record run read a million
 * events; a cold fold of a 206k-event run took seconds). Reads backwards from the end in reads of 64,
 * 128, … events, none over `maxHeld` and SUMMARY_LOOKBACK in all, so about twice what follows the page.
 * A run read back to its start without such a page (a push batch, a run short of its first page) is
 * folded from what was read, when it fits in `maxHeld`, rather than read again. Undefined when no such
 * page is that near the end — a run recorded before its pages carried totals (file runs before slices
 * did, pull runs before pages did) — or the run did not fit: loadRun folds it from its start. Events
 * after the page that did not fit are loadRun's to read.
 */
export async function stateAtLastTotals(store: EventStore, runId: string, maxHeld: number): Promise<ImportRunState | undefined> {
  const stream = importStream(runId);
  // The events read so far, newest first, all after the page looked for; undefined once more than maxHeld.
  let after: RecordedEvent[] | undefined = [];
  let fromRevision: number | undefined;
  for (let look = FIRST_LOOK, scanned = 0; scanned < SUMMARY_LOOKBACK; look *= 2) {
    const maxCount = Math.max(1, Math.min(look, maxHeld, SUMMARY_LOOKBACK - scanned));
    const events = await store.readStream(stream, {
      direction: 'backwards',
      maxCount,
      ...(fromRevision !== undefined ? { fromRevision } : {}),
    });
    const at = events.findIndex((e) => e.type === 'ImportPageFetched' && recordedTotals(e.data) !== undefined);
    if (at >= 0) {
      const page = events[at] as unknown as ImportPageFetched & RecordedEvent & { metadata: { recordedAt: string } };
      const run = stateAtPage(page, page.revision, recordedTotals(page.data)!);
      const following = after && after.length + at <= maxHeld ? [...after, ...events.slice(0, at)] : undefined;
      return following ? foldedWith(run, following.reverse()) : run;
    }
    scanned += events.length;
    fromRevision = (events.at(-1)?.revision ?? 0) - 1;
    if (events.length < maxCount || fromRevision < 0) {
      const whole = after && events.at(-1)?.revision === 0 && after.length + events.length <= maxHeld ? [...after, ...events] : undefined;
      return whole && foldedWith(initialImportRunState(), whole.reverse());
    }
    after = after && after.length + events.length <= maxHeld ? [...after, ...events] : undefined;
  }
  return undefined;
}

/**
 * A page's events with the run's totals right after the page on its ImportPageFetched (`run`: RunTotals),
 * which stateAtLastTotals reads back, and, for a file slice, where the file goes on after it (`resumeAt`).
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
