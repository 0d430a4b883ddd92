/**
 * `projection_checkpoints`: one row per projection version — its state, where it has read up to,
 * and how much it has processed. The row is also the optimistic lock of the exactly-once protocol:
 * every batch moves the checkpoint with a compare-and-set on the value it started from, in the
 * same transaction as the batch's effects, so two runners can never both commit the same batch.
 */
import type { Pool, PoolClient } from 'pg';
import type { Checkpoint } from '../event-store/event-store.port';
import type { ProjectionKind } from './projection';

export type Queryable = Pick<Pool | PoolClient, 'query'>;

/** building → live → retired → dropped. Reactors are born live and stay at version 1. */
export type VersionState = 'building' | 'live' | 'retired' | 'dropped';

export interface ProjectionVersionRow {
  name: string;
  version: number;
  kind: ProjectionKind;
  state: VersionState;
  /** Undefined: nothing processed yet, start from the beginning of history. */
  checkpoint: Checkpoint | undefined;
  eventsProcessed: number;
  /** Store time of the last event processed (for lag in seconds). */
  lastEventAt: Date | undefined;
  updatedAt: Date;
}

export const CHECKPOINT_TABLE = 'projection_checkpoints';

const COLUMNS = 'name, version, kind, state, checkpoint, events_processed, last_event_at, updated_at';

export async function readVersions(db: Queryable, name?: string): Promise<ProjectionVersionRow[]> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM ${CHECKPOINT_TABLE} WHERE $1::text IS NULL OR name = $1 ORDER BY name, version`, [
    name ?? null,
  ]);
  return rows.map(toVersionRow);
}

/** Locks the live and building rows of `name` until the transaction ends (used by the switch). */
export async function lockActiveVersions(client: PoolClient, name: string): Promise<ProjectionVersionRow[]> {
  const { rows } = await client.query(
    `SELECT ${COLUMNS} FROM ${CHECKPOINT_TABLE} WHERE name = $1 AND state IN ('live', 'building') ORDER BY version FOR UPDATE`,
    [name],
  );
  return rows.map(toVersionRow);
}

export async function insertVersion(
  db: Queryable,
  name: string,
  version: number,
  kind: ProjectionKind,
  state: VersionState,
): Promise<void> {
  await db.query(`INSERT INTO ${CHECKPOINT_TABLE} (name, version, kind, state) VALUES ($1, $2, $3, $4)`, [name, version, kind, state]);
}

export async function setVersionState(db: Queryable, name: string, version: number, state: VersionState): Promise<void> {
  await db.query(
    `UPDATE ${CHECKPOINT_TABLE} SET state = $3, updated_at = now(),
            switched_at = CASE WHEN $3 IN ('live', 'retired') THEN now() ELSE switched_at END
      WHERE name = $1 AND version = $2`,
    [name, version, state],
  );
}

export interface CheckpointAdvance {
  name: string;
  version: number;
  /** The state the runner works in: a retired version refuses further batches. */
  state: VersionState;
  previous: Checkpoint | undefined;
  next: Checkpoint;
  events: number;
  lastEventAt: Date | undefined;
}

/**
 * Opens the batch transaction and does every compare-and-set in the same round trip (a simple-query
 * batch; every value is escaped by the driver). Answers, per advance, whether it held: false when
 * another runner moved that checkpoint or the version left `state` (a rebuild switched readers away
 * from it), and the caller must roll back. `synchronousCommit: false` lets the transaction commit
 * without waiting for the WAL flush.
 */
export async function beginAndAdvanceCheckpoints(
  client: PoolClient,
  advances: CheckpointAdvance[],
  options: { synchronousCommit: boolean },
): Promise<boolean[]> {
  const literal = (value: string | undefined) => (value === undefined ? 'NULL' : client.escapeLiteral(value));
  const updates = advances.map(
    (advance) => `
     UPDATE ${CHECKPOINT_TABLE}
        SET checkpoint = ${literal(advance.next)}, events_processed = events_processed + ${Number(advance.events)},
            last_event_at = COALESCE(${literal(advance.lastEventAt?.toISOString())}::timestamptz, last_event_at), updated_at = now()
      WHERE name = ${literal(advance.name)} AND version = ${Number(advance.version)} AND state = ${literal(advance.state)}
        AND checkpoint IS NOT DISTINCT FROM ${literal(advance.previous)}`,
  );
  const results = (await client.query(
    `BEGIN;${options.synchronousCommit ? '' : ' SET LOCAL synchronous_commit TO off;'}${updates.join(';')}`,
  )) as unknown as Array<{ rowCount: number | null }>;
  return results.slice(-advances.length).map((result) => result.rowCount === 1);
}

function toVersionRow(row: Record<string, unknown>): ProjectionVersionRow {
  return {
    name: row.name as string,
    version: Number(row.version),
    kind: row.kind as ProjectionKind,
    state: row.state as VersionState,
    checkpoint: (row.checkpoint as Checkpoint | null) ?? undefined,
    eventsProcessed: Number(row.events_processed),
    lastEventAt: (row.last_event_at as Date | null) ?? undefined,
    updatedAt: row.updated_at as Date,
  };
}
