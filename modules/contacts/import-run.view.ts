/**
 * An import run as readers see it: GET /v1/sync/runs/{runId} folds it from the run's stream, and the
 * sync_runs read model (projections/sync-runs) keeps the same view for the run list.
 */
import { IMPORT_OUTCOMES, type ImportEvent, type ImportOutcome } from './contact.events';
import type { Checkpoint } from '../../src/event-store/event-store.port';
import { evolveImportRun, initialImportRunState, type ImportRunState, type RunStatus } from './import-run.state';

/** GET /v1/sync/runs/{runId}: progress and outcome counts of one run. */
export interface RunView {
  runId: string;
  source: string;
  kind: ImportRunState['kind'];
  status: RunStatus;
  processed: number;
  pages: number;
  counts: Record<ImportOutcome, number>;
  cursor: string | null;
  /**
   * A pull run: the CRM it is driven against, as it recorded it when it started (ImportRunStarted
   * .sourceIdentity, e.g. `http://127.0.0.1:3100`), or the new address an `idem sync resume
   * --source-moved` recorded since. Null: a file or push run, a source that names no address, or a run
   * recorded before runs named their CRM.
   */
  sourceIdentity: string | null;
  reason?: string;
  startedAt?: string;
  updatedAt?: string;
}

export function toRunView(run: ImportRunState): RunView {
  const counts = {} as Record<ImportOutcome, number>;
  for (const outcome of IMPORT_OUTCOMES) counts[outcome] = run.counts[outcome] ?? 0;
  return {
    runId: run.runId,
    source: run.source,
    kind: run.kind,
    status: run.status,
    processed: run.processed,
    pages: run.pages,
    counts,
    cursor: run.cursor,
    sourceIdentity: run.started?.sourceIdentity ?? null,
    ...(run.reason ? { reason: run.reason } : {}),
    startedAt: run.startedAt,
    updatedAt: run.updatedAt,
  };
}

/**
 * The run's view after one more event of its stream, from its view before it (undefined: nothing yet,
 * and still nothing before ImportRunStarted). This is evolveImportRun, the fold behind GET, applied to
 * the state the view carries, so a listed run cannot disagree with the run read on its own. What a
 * view leaves out of the state (the start's data but its source identity, the stop rule's count of
 * contradicting pages, the revision) feeds only itself in evolveImportRun, never a field the view shows.
 */
export function evolveRunView(view: RunView | undefined, event: ImportEvent & { metadata?: { recordedAt: string } }): RunView | undefined {
  const run = evolveImportRun(view ? stateOf(view) : initialImportRunState(), event);
  return run.exists ? toRunView(run) : undefined;
}

/** Field by field (not spreads of differently shaped objects): this runs once per event of the run list. */
function stateOf(view: RunView): ImportRunState {
  const state = initialImportRunState();
  state.exists = true;
  state.runId = view.runId;
  state.source = view.source;
  state.kind = view.kind;
  state.status = view.status;
  state.processed = view.processed;
  state.pages = view.pages;
  state.counts = { ...view.counts };
  state.cursor = view.cursor;
  // The start's data as far as a view shows it: a resume that moved the source replaces its identity.
  state.started = {
    runId: view.runId,
    source: view.source,
    startedBy: '',
    kind: view.kind,
    sourceIdentity: view.sourceIdentity ?? undefined,
  };
  state.reason = view.reason;
  state.startedAt = view.startedAt;
  state.updatedAt = view.updatedAt;
  return state;
}

/**
 * What the sync_runs read model showed at one checkpoint: the pull runs it had running. Its rows and
 * its checkpoint commit together, so read in one statement they are the log's state at that position.
 */
export interface RunsKnownAt {
  /** Undefined: the read model has processed nothing yet. */
  checkpoint: Checkpoint | undefined;
  runningPullRuns: string[];
}
