/**
 * The folded state of the import runs this process has loaded, per store, so that loading a run again
 * reads only the events appended since. A run's stream holds one event per record, and its status is
 * polled while it runs (GET /v1/sync/runs/{runId}, `idem sync status`): re-reading and re-folding
 * the whole stream on every poll cost the store more than the run itself (a 20,000-record run was
 * read 26 times, 176,000 events, two thirds of the database's time). The fold stays exact: streams
 * are append-only, so the state at revision N plus the events after N is the state of the stream.
 */
import type { EventStore } from '../../../src/event-store/event-store.port';
import type { ImportRunState } from '../import-run.state';

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
