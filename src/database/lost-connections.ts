/**
 * A server that goes away (a restart, a crash, a terminated backend: PostgreSQL then resets every
 * connection) makes `pg` emit 'error' on each of its clients. A pool listens for that only while a client
 * sits idle in it; a client checked out (a projection's transaction, a subscription's read, a charge
 * step) has no listener then, and an 'error' event without one kills the process. (TypeORM's query
 * runners add a listener of their own.)
 *
 * Every client of a pool passed here gets a listener for its whole life. Nothing else changes: the
 * query in flight, or the next one, fails with the lost connection and takes the usual error path (a
 * projection backs off and retries, a request answers 5xx), and the pool drops the broken client when it
 * is released. The service stays up (DESIGN §9, invariant 7) and reconnects as the server comes back.
 */
import type { Pool, PoolClient } from 'pg';

export function surviveLostConnections(pool: Pool, onLost: (error: Error) => void = () => undefined): Pool {
  pool.on('error', onLost);
  pool.on('connect', (client: PoolClient) => client.on('error', onLost));
  return pool;
}
