/**
 * Applies ordered SQL migrations once each, under an advisory lock so that several processes
 * starting together (api, worker, CLI) do not race. Used for the event store's own schema; the
 * read models have TypeORM migrations.
 */
import type { Pool } from 'pg';

export interface SqlMigration {
  version: number;
  name: string;
  sql: string;
}

export async function applyMigrations(pool: Pool, table: string, migrations: ReadonlyArray<SqlMigration>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [table]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${table}`);
    const applied = new Set(rows.map((row) => row.version));
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${table} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [table]).catch(() => undefined);
    client.release();
  }
}
