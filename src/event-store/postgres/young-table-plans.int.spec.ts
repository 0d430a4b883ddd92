/**
 * A fresh events table must not leave every connection with a cached plan that scans the table: the
 * predecessor check and the stream reads must keep using the (stream, revision) key while the table
 * grows from empty (see YOUNG_TABLE_PAGES in postgres.event-store.ts). The statistics are read back
 * from the one connection that did the work, after forcing it to flush them.
 */
import { Pool } from 'pg';
import { testEvent } from '../../../test/contracts/test-events';
import { createTestDatabase } from '../../../test/harness/test-database';
import { PostgresEventStore } from './postgres.event-store';

let pool: Pool;
let store: PostgresEventStore;

beforeAll(async () => {
  // One connection, so the whole history goes through one backend's cached plans.
  pool = new Pool({ connectionString: await createTestDatabase('young_table'), max: 1 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(() => pool.end());

async function eventsTableScans(): Promise<{ seqScans: number; rowsReadBySeqScans: number }> {
  await pool.query('SELECT pg_stat_force_next_flush()');
  await pool.query('SELECT 1'); // the flush happens at the end of the next transaction
  const { rows } = await pool.query(`SELECT seq_scan, seq_tup_read FROM pg_stat_user_tables WHERE relname = 'idem_events'`);
  return { seqScans: Number(rows[0].seq_scan), rowsReadBySeqScans: Number(rows[0].seq_tup_read) };
}

it('appends and reads through the key, not by scanning, while a fresh table grows', async () => {
  const streams = 300;
  const perStream = 10;
  // Stream by stream, so the exact-revision appends start while the table holds a few rows.
  for (let s = 0; s < streams; s++) {
    for (let revision = 0; revision < perStream; revision++) {
      await store.append(`young-s${s}`, [testEvent()], revision === 0 ? 'no_stream' : revision - 1);
    }
  }
  for (let s = 0; s < streams; s += 10) expect(await store.readStream(`young-s${s}`)).toHaveLength(perStream);

  // 3,000 appends and 30 reads. A cached plan made while the table held a handful of rows scans it on
  // every later call: about 4 million rows read here (checked). Planned per call, a scan is chosen
  // only while the table fits in a page or two: a few thousand rows read in all.
  const { rowsReadBySeqScans } = await eventsTableScans();
  expect(rowsReadBySeqScans).toBeLessThan(50_000);
});

it('checks the predecessors of grouped appends through the key, whatever the plan was made on', async () => {
  const before = (await eventsTableScans()).rowsReadBySeqScans;
  const writers = 16;
  const perStream = 250;
  // Sixteen appends in every turn: one grouped statement each, prepared while the table is small.
  for (let revision = 0; revision < perStream; revision++) {
    const results = await Promise.all(
      Array.from({ length: writers }, (_, w) => store.append(`young-g${w}`, [testEvent()], revision === 0 ? 'no_stream' : revision - 1)),
    );
    expect(new Set(results.map((r) => r.position.split('/')[0])).size).toBe(1);
  }
  // 250 grouped statements. Written as EXISTS, the predecessor check became a hashed subplan in the
  // cached plan, which reads the whole table on every call: about 1.3 million rows here (checked).
  const { rowsReadBySeqScans } = await eventsTableScans();
  expect(rowsReadBySeqScans - before).toBeLessThan(50_000);
});
