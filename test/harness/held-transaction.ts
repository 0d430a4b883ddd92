/**
 * A transaction left open, as a psql session left in BEGIN would be: on the PostgreSQL store every event
 * committed after it is held back from every reader (read-all.query.ts) until it ends.
 */
import type { Pool } from 'pg';
import type { EventStore } from '../../src/event-store/event-store.port';
import { waitUntil } from './wait-until';

/** Runs `during` while a session of `pool` holds a transaction open (with a transaction id of its own), then rolls it back. */
export async function whileTransactionHeldOpen<T>(pool: Pool, during: () => Promise<T>): Promise<T> {
  const held = await pool.connect();
  try {
    await held.query('BEGIN');
    await held.query('SELECT pg_current_xact_id()');
    return await during();
  } finally {
    await held.query('ROLLBACK');
    held.release();
  }
}

/** Waits until the store's oldest held-back event was written `ms` ago or more. */
export async function waitUntilHeldBackFor(store: EventStore, ms: number): Promise<void> {
  await waitUntil(
    () => store.heldBackSince!(),
    (since) => !!since && Date.now() - since.getTime() >= ms,
    ms + 10_000,
  );
}
