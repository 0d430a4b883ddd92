/**
 * Whole-stream reads asked for in one turn of the event loop share one query (whole-stream-reads.ts),
 * and each caller still gets exactly its own stream, in revision order. Queries are counted on the
 * real pool the store uses.
 */
import { Pool } from 'pg';
import { testEvents } from '../../../test/contracts/test-events';
import { createTestDatabase } from '../../../test/harness/test-database';
import { PostgresEventStore } from './postgres.event-store';
import { MAX_STREAMS_PER_READ } from './whole-stream-reads';

let url: string;
let pool: Pool;
let store: PostgresEventStore;
let queries = 0;

beforeAll(async () => {
  url = await createTestDatabase('whole_stream_reads');
  pool = new Pool({ connectionString: url, max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    queries++;
    return query(...args);
  }) as typeof pool.query;
});
afterAll(() => pool.end());

async function appendOneByOne(stream: string, count: number): Promise<void> {
  const events = testEvents(count);
  for (let i = 0; i < count; i++) await store.append(stream, [events[i]], i === 0 ? 'no_stream' : i - 1);
}

const revisions = (events: { revision: number }[]) => events.map((e) => e.revision);

it('answers the reads of one turn with one query, each caller with its own stream in revision order', async () => {
  await appendOneByOne('order-wsr-a', 5);
  await store.append('order-wsr-b', testEvents(3), 'no_stream');
  queries = 0;

  const [a, b, missing, aAgain] = await Promise.all([
    store.readStream('order-wsr-a'),
    store.readStream('order-wsr-b'),
    store.readStream('order-wsr-none'),
    store.readStream('order-wsr-a'),
  ]);

  expect(queries).toBe(1);
  expect(a.map((e) => e.stream)).toEqual(Array(5).fill('order-wsr-a'));
  expect(revisions(a)).toEqual([0, 1, 2, 3, 4]);
  expect(revisions(b)).toEqual([0, 1, 2]);
  expect(b.map((e) => e.data)).toEqual([{ index: 0 }, { index: 1 }, { index: 2 }]);
  expect(missing).toEqual([]);
  // The same stream twice: the same events, in an array of each caller's own.
  expect(aAgain).toEqual(a);
  expect(aAgain).not.toBe(a);
});

it('sends more streams than one query carries as several queries', async () => {
  await appendOneByOne('order-wsr-many-7', 2);
  await appendOneByOne('order-wsr-many-150', 3);
  const names = Array.from({ length: 2 * MAX_STREAMS_PER_READ + 30 }, (_, i) => `order-wsr-many-${i}`);
  queries = 0;

  const read = await Promise.all(names.map((name) => store.readStream(name)));

  expect(queries).toBe(3);
  expect(revisions(read[7])).toEqual([0, 1]);
  expect(revisions(read[150])).toEqual([0, 1, 2]);
  expect(read.filter((events) => events.length > 0)).toHaveLength(2);
});

it('reads on its own statement when a read is alone, and other reads are not combined', async () => {
  await appendOneByOne('order-wsr-alone', 4);
  queries = 0;
  expect(revisions(await store.readStream('order-wsr-alone'))).toEqual([0, 1, 2, 3]);
  expect(revisions(await store.readStream('order-wsr-alone', { fromRevision: 2 }))).toEqual([2, 3]);
  expect(revisions(await store.readStream('order-wsr-alone', { direction: 'backwards', maxCount: 2 }))).toEqual([3, 2]);
  expect(queries).toBe(3);
});

it('sees an append made just before the read', async () => {
  await store.append('order-wsr-fresh', testEvents(1), 'no_stream');
  const [fresh] = await Promise.all([
    store.append('order-wsr-fresh', testEvents(1), 0).then(() => store.readStream('order-wsr-fresh')),
    store.readStream('order-wsr-a'),
  ]);
  expect(revisions(fresh)).toEqual([0, 1]);
});

it('fails every read of a combined query when the query fails', async () => {
  const brokenPool = new Pool({ connectionString: url, max: 1 });
  const broken = new PostgresEventStore(brokenPool);
  await brokenPool.end();
  const reads = ['order-wsr-a', 'order-wsr-b'].map((stream) => broken.readStream(stream));
  for (const read of reads) await expect(read).rejects.toThrow(/pool/i);
});
