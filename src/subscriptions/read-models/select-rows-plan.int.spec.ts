/**
 * A read-model batch loads the rows it touches by key, one index probe per key (table-sql.ts):
 * never by reading the whole table, whatever the plan the connection cached. Counted with the
 * table's sequential-scan statistics, read back from the connection that did the work.
 */
import { Pool, type PoolClient } from 'pg';
import { createTestDatabase } from '../../../test/harness/test-database';
import { OrderRow } from '../../../projections/orders/orders.entity';
import { selectRows } from './table-sql';
import { createIndexSql, createTableSql, tableSpecOf } from './table-spec';

const spec = tableSpecOf(OrderRow);
const TABLE = 'orders_plan_check';
let pool: Pool;
let client: PoolClient;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('select_rows_plan'), max: 1 });
  client = await pool.connect();
  await client.query(createTableSql(spec, TABLE));
  for (const sql of createIndexSql(spec, TABLE)) await client.query(sql);
});
afterAll(async () => {
  client.release();
  await pool.end();
});

async function rowsReadBySeqScans(): Promise<number> {
  await client.query('SELECT pg_stat_force_next_flush()');
  await client.query('SELECT 1');
  const { rows } = await client.query(`SELECT seq_tup_read FROM pg_stat_user_tables WHERE relname = $1`, [TABLE]);
  return Number(rows[0].seq_tup_read);
}

it('loads a batch of rows through the key while the table grows to thousands of rows', async () => {
  const keys = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ orderId: `o-${from + i}` }));
  const before = await rowsReadBySeqScans();
  for (let batch = 0; batch < 100; batch++) {
    // Rows the way the projection writes them, 60 per batch, then the next batch's keys are loaded.
    await client.query(
      `INSERT INTO ${TABLE} (order_id, status, amount, currency, customer_id, attempts, revision, updated_at)
       SELECT 'o-' || g, 'pending', 100, 'EUR', 'c', 0, 0, now() FROM generate_series($1::int, $1::int + 59) g`,
      [batch * 60],
    );
    if (batch === 10) await client.query(`ANALYZE ${TABLE}`);
    const found = await selectRows(client, spec, TABLE, [...keys(batch * 60 + 30, 30), ...keys(batch * 60 + 60, 30)]);
    expect(found).toHaveLength(30);
  }
  // 100 batches over a table growing to 6,000 rows, statistics taken at 660. Written as `pk IN (keys)`,
  // or as a LATERAL join without its LIMIT (which the planner flattens into a plain join), the cached
  // plan hashed the keys and read the whole table each time: 303,000 rows (checked).
  expect((await rowsReadBySeqScans()) - before).toBeLessThan(20_000);
});
