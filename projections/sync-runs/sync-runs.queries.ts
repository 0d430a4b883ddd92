import type { Pool } from 'pg';
import type { Checkpoint } from '../../src/event-store/event-store.port';
import type { RunView, RunsKnownAt } from '../../modules/contacts/import-run.view';

import { decodeRow } from '../../src/subscriptions/read-models/row-codec';
import { tableSpecOf } from '../../src/subscriptions/read-models/table-spec';
import { SyncRunRow } from './sync-runs.entity';
import { runViewOf, syncRunsReadModel } from './sync-runs.projector';

/** Where a run stands in the list: the list's order, newest start first (a run without a start time first). */
export interface RunKey {
  /** ISO 8601 (as RunView.startedAt), or null. */
  startedAt: string | null;
  runId: string;
}

export interface RunListQuery {
  status?: RunView['status'];
  limit: number;
  /**
   * The last run of the page before: the runs listed after its key (keyset: no run is skipped or repeated
   * as new ones start, and the page goes on whether or not that run is still in the read model).
   */
  after?: RunKey;
}

/** A listed run's key, for the page after it. */
export const runKeyOf = (run: RunView): RunKey => ({ startedAt: run.startedAt ?? null, runId: run.runId });

/**
 * GET /v1/sync/runs?status= and `idem sync list`: pull and file runs (push batches are requests, not
 * runs anyone follows; as only they end `failed`, both refuse that status: modules/contacts/sync-runs/listed-statuses.ts), newest start first, read through the `sync_runs` view (the live version).
 * Both orderings walk the entity's partial indexes backwards and stop at `limit`, whatever the history.
 */
export async function listRuns(pool: Pool, { status, limit, after }: RunListQuery): Promise<RunView[]> {
  const params: unknown[] = [limit];
  const where = ["kind <> 'push'"];
  if (status) where.push(`status = $${params.push(status)}`);
  // Descending order puts a null start first: after such a key come the other null starts, then every start.
  if (after?.startedAt === null) where.push(`(started_at IS NOT NULL OR run_id < $${params.push(after.runId)})`);
  else if (after) where.push(`(started_at, run_id) < ($${params.push(after.startedAt)}::timestamptz, $${params.push(after.runId)})`);
  const { rows } = await pool.query(
    `SELECT * FROM sync_runs WHERE ${where.join(' AND ')} ORDER BY started_at DESC, run_id DESC LIMIT $1`,
    params,
  );
  const spec = tableSpecOf(SyncRunRow);
  return rows.map((raw: Record<string, unknown>) => runViewOf(decodeRow(spec, raw) as unknown as SyncRunRow));
}

/** Pull runs the read model shows running (a worker's orphan sweep confirms each on its stream). */
export async function runningPullRuns(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ run_id: string }>(`SELECT run_id FROM sync_runs WHERE kind = 'pull' AND status = 'running'`);
  return rows.map((row) => row.run_id);
}

/**
 * Push runs the read model shows running: requests in flight, and runs a request left unfinished
 * (a worker's sweep judges each on its stream, end-abandoned-pushes.ts). Few at any time; the entity's
 * partial index finds them without reading the finished ones.
 */
export async function runningPushRuns(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ run_id: string }>(`SELECT run_id FROM sync_runs WHERE kind = 'push' AND status = 'running'`);
  return rows.map((row) => row.run_id);
}

/**
 * The pull runs the live read model shows running and the checkpoint it shows them at, in one
 * statement (one snapshot: the projector commits its rows with its checkpoint). Undefined before the
 * read model's live version exists. A starting worker folds only the lifecycle events after it.
 */
export async function runningPullRunsAt(pool: Pool): Promise<RunsKnownAt | undefined> {
  const { rows } = await pool.query<{ checkpoint: string | null; running: string[] }>(
    `SELECT c.checkpoint, ARRAY(SELECT run_id FROM sync_runs WHERE kind = 'pull' AND status = 'running') AS running
       FROM projection_checkpoints c
      WHERE c.name = $1 AND c.state = 'live'`,
    [syncRunsReadModel.name],
  );
  return rows[0] && { checkpoint: (rows[0].checkpoint as Checkpoint | null) ?? undefined, runningPullRuns: rows[0].running };
}
