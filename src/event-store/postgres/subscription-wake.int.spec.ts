/**
 * How an append in this process wakes a live subscription. Polling is set to a minute, so a read
 * that happens within the test's time limit was started by a wake-up, not by a poll. The tests count
 * the subscription's reads (its only `pool.query` calls here; appends check out a client) rather than
 * wait for events: the cluster is shared with files that hold transactions open, and the gap-free
 * rule may rightly hold a fresh event back for a while, which is not what is tested here.
 */
import { Pool } from 'pg';
import { subscribeToCategory, testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import { createIsolatedTestDatabase } from '../../../test/harness/test-database';
import { waitFor } from '../../../test/projections/projection-harness';
import type { SubscriptionBatch } from '../event-store.port';
import { PostgresEventStore } from './postgres.event-store';

jest.setTimeout(30_000);

const A_MINUTE = 60_000;
let pool: Pool;
let reads = 0;
let stopCluster: () => Promise<void>;

beforeAll(async () => {
  const database = await createIsolatedTestDatabase('subscription_wake');
  stopCluster = database.stop;
  pool = new Pool({ connectionString: database.url, max: 8 });
  await new PostgresEventStore(pool).migrate();
  const query = pool.query.bind(pool);
  pool.query = ((...args: Parameters<Pool['query']>) => {
    reads++;
    return (query as (...a: unknown[]) => unknown)(...args);
  }) as Pool['query'];
});
afterAll(async () => {
  await pool.end();
  await stopCluster();
});

/** Reads until the subscription has caught up on its (empty) category and waits for a wake-up. */
async function caughtUp(batches: AsyncIterator<SubscriptionBatch>): Promise<void> {
  const { value } = await batches.next();
  expect(value).toMatchObject({ events: [], caughtUp: true });
}

it('reads again at once for an append that committed while its consumer held the previous batch', async () => {
  const store = new PostgresEventStore(pool, { pollIntervalMs: A_MINUTE });
  const category = uniqueCategory();
  const subscription = subscribeToCategory(store, category);
  const batches = subscription[Symbol.asyncIterator]();
  try {
    await caughtUp(batches);
    // The consumer has the batch and has not asked for more: no wait is set up, so this append's
    // wake-up finds nobody to wake. It must not be lost until the next poll.
    await store.append(`${category}-1`, [testEvent()], 'no_stream');
    const before = reads;
    void batches.next();
    await waitFor('a read after the append', async () => reads > before, 10_000, 10);
  } finally {
    await subscription.close();
  }
});

it('gathers the appends of its wake delay into one read', async () => {
  const store = new PostgresEventStore(pool, { pollIntervalMs: A_MINUTE, appendWakeDelayMs: 1_000 });
  const category = uniqueCategory();
  const subscription = subscribeToCategory(store, category);
  const batches = subscription[Symbol.asyncIterator]();
  try {
    await caughtUp(batches);
    void batches.next();
    const before = reads;
    // Five appends well inside the delay: none of them may start a read of its own.
    for (let i = 0; i < 5; i++) await store.append(`${category}-${i}`, [testEvent(`E${i}`)], 'no_stream');
    expect(reads).toBe(before);
    await waitFor('the one read the delay ends in', async () => reads > before, 10_000, 10);
  } finally {
    await subscription.close();
  }
});
