/**
 * How an append in this process wakes a live subscription. Polling is set to a minute, so anything
 * delivered within the test's time limit was delivered by a wake-up, not by a poll. On a cluster of
 * its own: the gap-free rule reads only below the oldest transaction in flight anywhere in the
 * cluster, and another test file's transaction could hold a delivery back until the next poll.
 */
import { Pool } from 'pg';
import { subscribeToCategory, testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import { createIsolatedTestDatabase } from '../../../test/harness/test-database';
import type { SubscriptionBatch } from '../event-store.port';
import { PostgresEventStore } from './postgres.event-store';

jest.setTimeout(30_000);

const A_MINUTE = 60_000;
let pool: Pool;
let stopCluster: () => Promise<void>;

beforeAll(async () => {
  const database = await createIsolatedTestDatabase('subscription_wake');
  stopCluster = database.stop;
  pool = new Pool({ connectionString: database.url, max: 8 });
  await new PostgresEventStore(pool).migrate();
});
afterAll(async () => {
  await pool.end();
  await stopCluster();
});

/** The next batch that carries events. */
async function nextEvents(batches: AsyncIterator<SubscriptionBatch>): Promise<SubscriptionBatch> {
  for (;;) {
    const { value, done } = await batches.next();
    if (done) throw new Error('the subscription ended');
    if (value.events.length) return value;
  }
}

it('delivers an append that commits while the consumer still holds the previous batch', async () => {
  const store = new PostgresEventStore(pool, { pollIntervalMs: A_MINUTE });
  const category = uniqueCategory();
  const subscription = subscribeToCategory(store, category);
  const batches = subscription[Symbol.asyncIterator]();
  try {
    await store.append(`${category}-1`, [testEvent('First')], 'no_stream');
    expect((await nextEvents(batches)).events.map((e) => e.type)).toEqual(['First']);
    // The subscription is not waiting now (its consumer has not asked for more): this append's
    // wake-up finds nobody to wake, and must not be lost.
    await store.append(`${category}-1`, [testEvent('Second')], 0);
    expect((await nextEvents(batches)).events.map((e) => e.type)).toEqual(['Second']);
  } finally {
    await subscription.close();
  }
});

it('gathers the appends of its wake delay into one batch', async () => {
  const store = new PostgresEventStore(pool, { pollIntervalMs: A_MINUTE, appendWakeDelayMs: 300 });
  const category = uniqueCategory();
  const subscription = subscribeToCategory(store, category);
  const batches = subscription[Symbol.asyncIterator]();
  try {
    // Caught up on an empty category: the subscription now waits for a wake-up.
    const { value: first } = await batches.next();
    expect(first).toMatchObject({ events: [], caughtUp: true });
    const waiting = nextEvents(batches);
    for (let i = 0; i < 5; i++) await store.append(`${category}-${i}`, [testEvent(`E${i}`)], 'no_stream');
    expect((await waiting).events.map((e) => e.type)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4']);
  } finally {
    await subscription.close();
  }
});
