/**
 * Installs or upgrades graphile-worker's schema (`graphile_worker`) in the read-model database, the
 * same database the projection checkpoints live in: that is what lets a reactor enqueue a job in the
 * transaction that moves its checkpoint.
 */
import { runMigrations } from 'graphile-worker';
import type { Pool } from 'pg';

export async function installJobQueue(pool: Pool): Promise<void> {
  // graphile-worker's installer is not safe against a concurrent first install (api, worker and CLI
  // starting together), so serialise it; the lock sits on its own connection.
  const lock = await pool.connect();
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('idem.job-queue-install'))`);
    await runMigrations({ pgPool: pool });
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(hashtext('idem.job-queue-install'))`).catch(() => undefined);
    lock.release();
  }
}
