/**
 * Upgrades a database whose `sync_runs` versions were made before runs showed their CRM: every version
 * table without the `source_identity` column gets it (null), and the reader view, whose `SELECT *` was
 * expanded when it was made, is made again over the live version so that it shows the column. Without
 * this the live projector, whose writes name every column of the entity, would fail on the old table
 * until a rebuild. Rows projected before keep null until `idem projections rebuild sync_runs` builds the
 * next version from the whole history (`idem projections verify sync_runs` lists them meanwhile); runs
 * projected from now on show theirs. A fresh database has no version yet: its first is made with it.
 */
import type { Pool } from 'pg';
import { readVersions, type Queryable } from '../../src/subscriptions/checkpoint-store';
import { assertIdentifier } from '../../src/subscriptions/read-models/table-spec';
import { inTransaction, lockRegistry, pointReadersAt } from '../../src/subscriptions/read-models/versions';
import { syncRunsReadModel } from './sync-runs.projector';

const COLUMN = 'source_identity';

/** The version tables of sync_runs (`sync_runs_v<n>`) that have no `source_identity` column. */
async function tablesWithoutColumn(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ table: string }>(
    `SELECT c.relname AS table
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname ~ $1
        AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = $2 AND NOT a.attisdropped)`,
    [`^${syncRunsReadModel.name}_v[0-9]+$`, COLUMN],
  );
  return rows.map((row) => assertIdentifier(row.table));
}

/** Safe with several processes starting at once: the second finds the column there, under the registry's lock. */
export async function addSourceIdentityColumn(pool: Pool): Promise<void> {
  if (!(await tablesWithoutColumn(pool)).length) return; // the usual start: one query
  await inTransaction(pool, async (client) => {
    // The lock a rebuild's switch takes too: the view is not repointed under a switch.
    await lockRegistry(client, syncRunsReadModel.name);
    const tables = await tablesWithoutColumn(client);
    for (const table of tables) await client.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${COLUMN} text`);
    const live = (await readVersions(client, syncRunsReadModel.name)).find((version) => version.state === 'live');
    if (live && tables.length) await pointReadersAt(client, syncRunsReadModel, live.version);
  });
}
