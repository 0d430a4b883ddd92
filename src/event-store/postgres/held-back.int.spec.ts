/**
 * heldBackSince: what the gap-free read rule costs, made visible. A transaction left open anywhere in
 * the cluster holds every event committed after it back from every reader (read-all.query.ts), and the
 * projections' lag, which counts what they could read, says 0 meanwhile; /metrics reports this age as
 * `idem_event_store_held_back_seconds`. The held transaction here is a plain session of the same
 * database, as a psql left in BEGIN after a write would be.
 */
import { Pool } from 'pg';
import { testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import { createTestDatabase } from '../../../test/harness/test-database';
import { waitUntilSettled } from '../../../test/harness/settled-history';
import { PostgresEventStore } from './postgres.event-store';

let pool: Pool;
let store: PostgresEventStore;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('held_back'), max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(() => pool.end());

it('says since when events are written but held back by a transaction in flight, and nothing once it ends', async () => {
  const held = await pool.connect();
  try {
    await held.query('BEGIN');
    await held.query('SELECT pg_current_xact_id()');
    const stream = `${uniqueCategory()}-1`;
    const before = Date.now();
    const { position } = await store.append(stream, [testEvent()], 'no_stream');

    // Written (its stream reads it) and held back from the global order, which every projection reads.
    expect(await store.readStream(stream)).toHaveLength(1);
    expect((await store.readAll({ maxCount: 1000 })).some((event) => event.position === position)).toBe(false);
    const since = await store.heldBackSince();
    expect(since).toBeInstanceOf(Date);
    // `created` is the writer's transaction start, begun after `before` on the same clock.
    expect(since!.getTime()).toBeGreaterThanOrEqual(before);
    expect(since!.getTime()).toBeLessThanOrEqual(Date.now());

    await held.query('COMMIT');
    // Nothing of this database is in flight now; other files' transactions on the cluster may still be.
    await waitUntilSettled(pool);
    expect(await store.heldBackSince()).toBeUndefined();
    expect((await store.readAll({ maxCount: 1000 })).some((event) => event.position === position)).toBe(true);
  } finally {
    await held.query('ROLLBACK').catch(() => undefined);
    held.release();
  }
});
