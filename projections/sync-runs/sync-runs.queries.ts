import type { Pool } from 'pg';
import type { RunView } from '../../modules/contacts/import-run.view';
import { decodeRow } from '../../src/subscriptions/read-models/row-codec';
import { tableSpecOf } from '../../src/subscriptions/read-models/table-spec';
import { SyncRunRow } from './sync-runs.entity';
import { runViewOf } from './sync-runs.projector';

export interface RunListQuery {
  status?: RunView['status'];
  limit: number;
}

/**
 * GET /v1/sync/runs?status= and `idem sync list`: pull and file runs (push batches are requests, not
 * runs anyone follows), newest start first, read through the `sync_runs` view (the live version).
 * Both orderings walk the entity's partial indexes backwards and stop at `limit`, whatever the history.
 */
export async function listRuns(pool: Pool, { status, limit }: RunListQuery): Promise<RunView[]> {
  const { rows } = await pool.query(
    `SELECT * FROM sync_runs WHERE kind <> 'push' ${status ? 'AND status = $2' : ''} ORDER BY started_at DESC, run_id DESC LIMIT $1`,
    status ? [limit, status] : [limit],
  );
  const spec = tableSpecOf(SyncRunRow);
  return rows.map((raw: Record<string, unknown>) => runViewOf(decodeRow(spec, raw) as unknown as SyncRunRow));
}

/** Pull runs the read model shows running (a worker's orphan sweep confirms each on its stream). */
export async function runningPullRuns(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ run_id: string }>(`SELECT run_id FROM sync_runs WHERE kind = 'pull' AND status = 'running'`);
  return rows.map((row) => row.run_id);
}
