/**
 * The proof the PostgreSQL store's global order is gap-free: 16 concurrent writers append 20,000
 * events while some of their transactions stay open for random milliseconds (so later sequence
 * numbers commit before earlier ones). A subscriber started before them must receive every event
 * exactly once, in readAll order; a subscriber restarted from any checkpoint resumes without loss or
 * duplicate.
 */
import { randomUUID } from 'node:crypto';
import { Pool, type PoolClient } from 'pg';
import { collect, readCategory, subscribeToCategory, testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import { createIsolatedTestDatabase } from '../../../test/harness/test-database';
import { compareCheckpoints } from '../checkpoint';
import type { Checkpoint } from '../event-store.port';
import { PostgresEventStore } from './postgres.event-store';

jest.setTimeout(240_000);

const WRITERS = 16;
const TOTAL = 20_000;
let pool: Pool;
let store: PostgresEventStore;
let stopCluster: () => Promise<void>;

beforeAll(async () => {
  // Its held-open transactions would stall settled reads of every other test file on a shared cluster.
  const database = await createIsolatedTestDatabase('gap_free');
  stopCluster = database.stop;
  pool = new Pool({ connectionString: database.url, max: WRITERS + 8 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(async () => {
  await pool.end();
  await stopCluster();
});

/** An append inside an explicit transaction that stays open for `holdMs` after writing. */
async function appendHeldOpen(client: PoolClient, stream: string, expected: number, holdMs: number): Promise<void> {
  const event = testEvent('Held');
  await client.query('BEGIN');
  try {
    const { rows } = await client.query(`SELECT outcome FROM idem_append($1, $2, $3::uuid[], $4::text[], $5::json[], $6::json[])`, [
      stream,
      expected,
      [event.id],
      [event.type],
      [JSON.stringify(event.data)],
      [JSON.stringify(event.metadata)],
    ]);
    expect(rows[0].outcome).toBe('appended');
    await client.query('SELECT pg_sleep($1)', [holdMs / 1000]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

describe('PostgresEventStore.subscribeToAll under concurrent writers with late commits', () => {
  it('delivers all 20,000 events exactly once in readAll order, and resumes from any checkpoint', async () => {
    const category = uniqueCategory();
    const perWriter = TOTAL / WRITERS;
    const live = collect(subscribeToCategory(store, category, { maxBatchSize: 500 }), (events) => events.length >= TOTAL, 60_000);

    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        const client = await pool.connect();
        try {
          let stream = '';
          for (let i = 0; i < perWriter; i++) {
            const revision = i % 25;
            if (revision === 0) stream = `${category}-${writer}.${randomUUID().slice(0, 8)}`;
            // About one append in 40 holds its transaction open for up to 30 ms after writing.
            if (Math.random() < 0.025) await appendHeldOpen(client, stream, revision === 0 ? -1 : revision - 1, 1 + Math.random() * 30);
            else await store.append(stream, [testEvent()], revision === 0 ? 'no_stream' : revision - 1);
          }
        } finally {
          client.release();
        }
      }),
    );

    const { events, checkpoints } = await live;
    const history = await readCategory(store, category);
    expect(history).toHaveLength(TOTAL);
    expect(events.map((e) => e.id)).toEqual(history.map((e) => e.id));
    expect(new Set(events.map((e) => e.id)).size).toBe(TOTAL);

    // Restart from a few checkpoints the subscriber handed out, including early and late ones.
    const picks = [checkpoints[0], checkpoints[Math.floor(checkpoints.length / 3)], checkpoints[checkpoints.length - 2]];
    const resumedLengths: number[] = [];
    for (const checkpoint of picks) {
      // A filtered subscriber's checkpoint may sit between events (the settled horizon): what follows
      // it is every event positioned after it.
      const rest = events.filter((e) => compareCheckpoints(e.position, checkpoint as Checkpoint) > 0);
      resumedLengths.push(rest.length);
      const resumed = await collect(
        subscribeToCategory(store, category, { after: checkpoint as Checkpoint, maxBatchSize: 1000 }),
        (seen) => seen.length >= rest.length,
        30_000,
      );
      expect(resumed.events.map((e) => e.id)).toEqual(rest.map((e) => e.id));
    }
    // At least one restart happened in the middle of the history.
    expect(resumedLengths.some((length) => length > 0 && length < TOTAL)).toBe(true);
  });
});
