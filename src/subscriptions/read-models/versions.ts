/**
 * Read-model versions (blue/green). Each version has its own table `<name>_v<n>`, created from the
 * read model's entity as it is when that version is made; readers query the view `<name>`, which
 * points at the live version and is repointed in the same transaction that marks the new version
 * live. Changing a read model's columns or logic therefore means: change the code, rebuild.
 */
import type { Pool, PoolClient } from 'pg';
import type { Checkpoint } from '../../event-store/event-store.port';
import { insertVersion, readVersions, setVersionState, type Queryable } from '../checkpoint-store';
import type { Projection } from '../projection';
import type { AnyReadModel } from './read-model';
import { versionTable } from './read-model.projection';
import { assertIdentifier, createIndexSql, createTableSql, tableSpecOf } from './table-spec';

export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Serialises registry changes for one projection across processes (install, rebuild, switch, drop). */
export async function lockRegistry(client: PoolClient, name: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('idem.projection-registry'), hashtext($1))`, [name]);
}

/**
 * A version's table. A serving version's is created complete (logged, indexed). A version being
 * rebuilt starts UNLOGGED and without secondary indexes — its writes skip the WAL and index upkeep —
 * and is made durable and indexed once, just before readers switch to it (`finishVersionTable`).
 */
export async function createVersionTable(db: Queryable, model: AnyReadModel, version: number, forRebuild: boolean): Promise<void> {
  const spec = tableSpecOf(model.entity);
  const table = versionTable(assertIdentifier(model.name), version);
  await db.query(createTableSql(spec, table).replace(/^CREATE TABLE/, forRebuild ? 'CREATE UNLOGGED TABLE' : 'CREATE TABLE'));
  if (!forRebuild) for (const sql of createIndexSql(spec, table)) await db.query(sql);
}

export async function finishVersionTable(db: Queryable, model: AnyReadModel, version: number): Promise<void> {
  const table = versionTable(assertIdentifier(model.name), version);
  await db.query(`ALTER TABLE ${table} SET LOGGED`);
  for (const sql of createIndexSql(tableSpecOf(model.entity), table)) await db.query(sql);
}

/** Repoints the reader view. Inside the caller's transaction, so readers see the old or the new table, never neither. */
export async function pointReadersAt(client: PoolClient, model: AnyReadModel, version: number): Promise<void> {
  const view = assertIdentifier(model.name);
  await client.query(`DROP VIEW IF EXISTS ${view}`);
  await client.query(`CREATE VIEW ${view} AS SELECT * FROM ${versionTable(view, version)}`);
}

/** Version 1 of every read model that has none yet (a fresh database). One transaction for all. */
export async function installReadModels(pool: Pool, models: AnyReadModel[]): Promise<void> {
  const names = models.map((m) => m.name);
  const { rows } = await pool.query(`SELECT DISTINCT name FROM projection_checkpoints WHERE name = ANY($1)`, [names]);
  if (rows.length === names.length) return; // the usual start: everything installed, one query
  await inTransaction(pool, async (client) => {
    for (const model of models) {
      await lockRegistry(client, model.name);
      if ((await readVersions(client, model.name)).length) continue;
      await createVersionTable(client, model, 1, false);
      await pointReadersAt(client, model, 1);
      await insertVersion(client, model.name, 1, 'read_model', 'live');
    }
  });
}

export async function installReactors(pool: Pool, reactors: Projection[]): Promise<void> {
  for (const reactor of reactors) await reactor.install?.(pool);
  await pool.query(
    `INSERT INTO projection_checkpoints (name, version, kind, state) SELECT unnest($1::text[]), 1, 'reactor', 'live' ON CONFLICT DO NOTHING`,
    [reactors.map((r) => r.name)],
  );
}

export interface NextVersion {
  version: number;
  checkpoint: Checkpoint | undefined;
  /** True when an interrupted rebuild of this version is being continued. */
  resumed: boolean;
}

/** The version a rebuild works on: the one already building (resume), else a new one with empty tables. */
export async function prepareNextVersion(pool: Pool, model: AnyReadModel): Promise<NextVersion> {
  return inTransaction(pool, async (client) => {
    await lockRegistry(client, model.name);
    const versions = await readVersions(client, model.name);
    if (!versions.some((v) => v.state === 'live')) throw new Error(`read model ${model.name} is not installed`);
    const building = versions.find((v) => v.state === 'building');
    if (building) {
      // Crash recovery empties unlogged tables: an empty table behind a checkpoint starts over.
      const table = versionTable(assertIdentifier(model.name), building.version);
      const { rows } = await client.query(`SELECT EXISTS (SELECT 1 FROM ${table}) AS filled`);
      if (rows[0].filled || !building.checkpoint) return { version: building.version, checkpoint: building.checkpoint, resumed: true };
      await client.query(`UPDATE projection_checkpoints SET checkpoint = NULL, events_processed = 0 WHERE name = $1 AND version = $2`, [
        model.name,
        building.version,
      ]);
      return { version: building.version, checkpoint: undefined, resumed: false };
    }
    const version = Math.max(...versions.map((v) => v.version)) + 1;
    await createVersionTable(client, model, version, true);
    await insertVersion(client, model.name, version, 'read_model', 'building');
    return { version, checkpoint: undefined, resumed: false };
  });
}

/** Drops the tables of versions a switch retired; returns their numbers. */
export async function dropOldVersions(pool: Pool, model: AnyReadModel): Promise<number[]> {
  return inTransaction(pool, async (client) => {
    await lockRegistry(client, model.name);
    const retired = (await readVersions(client, model.name)).filter((v) => v.state === 'retired');
    for (const { version } of retired) {
      await client.query(`DROP TABLE IF EXISTS ${versionTable(assertIdentifier(model.name), version)}`);
      await setVersionState(client, model.name, version, 'dropped');
    }
    return retired.map((v) => v.version);
  });
}
