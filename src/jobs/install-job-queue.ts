/**
 * Installs or upgrades graphile-worker's schema (`graphile_worker`) in the read-model database, the
 * same database the projection checkpoints live in: that is what lets a reactor enqueue a job in the
 * transaction that moves its checkpoint.
 */
import { runMigrations } from 'graphile-worker';
import { Pool } from 'pg';

export async function installJobQueue(pool: Pool): Promise<void> {
  // graphile-worker's installer is not safe against a concurrent first install (api, worker and CLI
  // starting together), so serialise it; the lock sits on its own connection.
  const lock = await pool.connect();
  // The installer gets a pool of its own, ended here: graphile puts an error listener with its own
  // console logger on every client that connects while it runs and never takes it off, so the api's
  // clients printed "[core] ERROR: PostgreSQL active client generated error" for the rest of their
  // lives, at every stall or restart of the database (the pool's own handling already covers them).
  const installer = new Pool({ ...pool.options, max: 1 });
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('idem.job-queue-install'))`);
    await runMigrations({ pgPool: installer });
  } finally {
    await installer.end().catch(() => undefined);
    await lock.query(`SELECT pg_advisory_unlock(hashtext('idem.job-queue-install'))`).catch(() => undefined);
    lock.release();
  }
}
