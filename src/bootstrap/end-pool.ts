/**
 * Ends a pool and waits until PostgreSQL has closed each of its connections. pg-pool's `end()`
 * resolves as soon as it has asked its clients to end, before their goodbyes reach the server; the
 * entry points stop the embedded PostgreSQL right after, and its fast shutdown then terminated those
 * sessions itself — "terminating connection due to administrator command" on every client still
 * listening, which the job queue's pool handlers logged as `[core] ERROR: PostgreSQL active client
 * generated error` on a clean Ctrl+C, now and then (as the scheduler had it).
 */
import type { Pool } from 'pg';

/** How long a stop waits for the server to close the connections before it goes on regardless. */
const CLOSE_WAIT_MS = 5_000;

export async function endPool(pool: Pool, closeWaitMs = CLOSE_WAIT_MS): Promise<void> {
  const open = pool.totalCount;
  // pg-pool emits 'remove' for a client once its connection has ended (the client's 'end').
  let removed = 0;
  let timer: NodeJS.Timeout | undefined;
  const closed = new Promise<void>((resolve) => {
    if (!open) return resolve();
    pool.on('remove', () => ++removed >= open && resolve());
    timer = setTimeout(resolve, closeWaitMs).unref();
  });
  try {
    await pool.end();
    await closed;
  } finally {
    clearTimeout(timer);
  }
}
