import type { Pool } from 'pg';
import { waitUntil } from './wait-until';

/**
 * Waits until everything committed before this call has settled: the PostgreSQL store's readAll
 * shows only transactions below the oldest one still running anywhere in the cluster, and other test
 * files run theirs on the same cluster, so an event appended a moment ago may not be readable yet.
 * A fresh transaction id is newer than every transaction that committed before it; once the
 * snapshot's xmin has passed it, none of those is in flight any more.
 */
export async function waitUntilSettled(pool: Pool, timeoutMs = 30_000): Promise<void> {
  const { rows } = await pool.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
  const fence = BigInt(rows[0].xid);
  await waitUntil(
    async () => BigInt((await pool.query<{ xmin: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin')).rows[0].xmin),
    (xmin) => xmin > fence,
    timeoutMs,
  );
}
