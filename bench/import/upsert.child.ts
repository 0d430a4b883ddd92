/**
 * The seed's own state-based recipe (reference/payments-idempotency.md §8), in its own process:
 * `INSERT … ON CONFLICT (source, source_id) DO UPDATE … WHERE contacts.version < excluded.version`
 * plus an import_events row, in one transaction — per record with 16 workers (`row`), or 1,000
 * records per statement with `unnest` and 4 workers (`batch`).
 */
import { Pool, type PoolClient } from 'pg';
import { childMain } from '../lib/child';
import { generate, type BenchRecord } from './data';

interface Input {
  url: string;
  mode: 'row' | 'batch';
  contacts: number;
}

const SCHEMA = `
  DROP TABLE IF EXISTS bench_contacts, bench_import_events;
  CREATE TABLE bench_contacts (source text, source_id text, version bigint NOT NULL, fields jsonb NOT NULL, PRIMARY KEY (source, source_id));
  CREATE TABLE bench_import_events (id bigserial PRIMARY KEY, source text, source_id text, event_id text, version bigint, applied boolean);`;

const UPSERT = `INSERT INTO bench_contacts (source, source_id, version, fields)
  SELECT 'crm', u.* FROM unnest($1::text[], $2::bigint[], $3::jsonb[]) AS u(source_id, version, fields) ORDER BY u.source_id
  ON CONFLICT (source, source_id) DO UPDATE SET version = excluded.version, fields = excluded.fields WHERE bench_contacts.version < excluded.version
  RETURNING source_id`;
const AUDIT = `INSERT INTO bench_import_events (source, source_id, event_id, version, applied)
  SELECT 'crm', s, e, v, s = ANY($4::text[]) FROM unnest($1::text[], $2::text[], $3::bigint[]) AS t(s, e, v)`;

async function write(client: PoolClient, records: BenchRecord[]): Promise<void> {
  // One statement cannot update a row twice: a careful batch keeps each contact's freshest record,
  // and takes its rows' locks in key order (ORDER BY in UPSERT), so that two batches sharing
  // contacts wait for each other instead of deadlocking.
  const byId = new Map<string, BenchRecord>();
  for (const r of records) if ((byId.get(r.sourceId)?.version ?? -1) < r.version) byId.set(r.sourceId, r);
  const fresh = [...byId.values()];
  await client.query('BEGIN');
  const { rows } = await client.query(UPSERT, [
    fresh.map((r) => r.sourceId),
    fresh.map((r) => r.version),
    fresh.map((r) => JSON.stringify(r.fields)),
  ]);
  await client.query(AUDIT, [
    records.map((r) => r.sourceId),
    records.map((r) => r.eventId),
    records.map((r) => r.version),
    rows.map((r) => r.source_id),
  ]);
  await client.query('COMMIT');
}

childMain<Input, { perSecond: number; seconds: number; wrongState: number }>(async ({ url, mode, contacts }) => {
  const { records, freshest } = generate(contacts);
  const workers = mode === 'row' ? 16 : 4;
  const size = mode === 'row' ? 1 : 1000;
  const pool = new Pool({ connectionString: url, max: workers });
  await pool.query(SCHEMA);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      const client = await pool.connect();
      try {
        while (next < records.length) {
          const slice = records.slice(next, (next += size));
          await write(client, slice);
        }
      } finally {
        client.release();
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { rows } = await pool.query(`SELECT source_id, version FROM bench_contacts`);
  const wrongState = rows.filter((r) => Number(r.version) !== freshest.get(r.source_id)).length + (freshest.size - rows.length);
  await pool.end();
  return { perSecond: records.length / seconds, seconds, wrongState };
});
