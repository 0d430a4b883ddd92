/**
 * Writes the catch-up history quickly: `events` events in streams of `eventsPerStream`, through
 * bulk INSERT … SELECT in transactions of `perTransaction` events (so the history spans many
 * transaction ids, as a real one does), with the same event shape as the append benchmark.
 * Ends with VACUUM ANALYZE so the reader does not pay for first-touch hint-bit writes.
 */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { benchEvent } from './workload';

export async function seedCatchUp(url: string, events: number, eventsPerStream = 10, perTransaction = 10_000): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    await new PostgresEventStore(pool).migrate();
    const template = benchEvent('order-seed');
    for (let first = 0; first < events; first += perTransaction) {
      const count = Math.min(perTransaction, events - first);
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO idem_events (stream_name, revision, event_id, event_type, data, metadata)
           SELECT 'order-c' || lpad((n / $3)::text, 8, '0'), n % $3, gen_random_uuid(), $4,
                  $5::jsonb || jsonb_build_object('orderId', 'c' || lpad((n / $3)::text, 8, '0'), 'amount', 1000 + n % 1000),
                  $6::jsonb || jsonb_build_object('correlationId', gen_random_uuid(), 'causationId', gen_random_uuid())
             FROM generate_series($1::bigint, $1::bigint + $2 - 1) AS n
            ORDER BY n`,
          [first, count, eventsPerStream, template.type, JSON.stringify(template.data), JSON.stringify(template.metadata)],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    }
    await pool.query('VACUUM (ANALYZE) idem_events');
  } finally {
    await pool.end();
  }
}
