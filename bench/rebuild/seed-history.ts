/**
 * Writes the benchmark's history straight into the PostgreSQL event store's tables, 10,000 events per
 * transaction (one `unnest` insert each), streams interleaved the way concurrent requests interleave
 * them. This bypasses `append` on purpose: the benchmark measures the rebuild, not the writers, and
 * a million single appends would take minutes. Rows are exactly what `append` would write. Seeders
 * running in parallel must use different seeds: each then owns its streams, so a stream's events
 * are never split across two concurrent transactions (which could commit out of revision order).
 */
import type { Pool } from 'pg';
import { mixedScripts, type StreamScript } from '../../test/projections/workload';

const CHUNK = 10_000;

export async function seedHistory(pool: Pool, total: number, seed = 1): Promise<void> {
  const scripts = mixedScripts(seed, `b${seed}`);
  const open: Array<{ script: StreamScript; next: number }> = [];
  let written = 0;
  while (written < total) {
    const rows = {
      stream: [] as string[],
      revision: [] as number[],
      id: [] as string[],
      type: [] as string[],
      data: [] as string[],
      metadata: [] as string[],
    };
    const size = Math.min(CHUNK, total - written);
    while (rows.stream.length < size) {
      while (open.length < 256) open.push({ script: scripts.next().value as StreamScript, next: 0 });
      const index = Math.floor(Math.random() * open.length);
      const cursor = open[index];
      const event = cursor.script.events[cursor.next];
      rows.stream.push(cursor.script.stream);
      rows.revision.push(cursor.next);
      rows.id.push(event.id);
      rows.type.push(event.type);
      rows.data.push(JSON.stringify(event.data));
      rows.metadata.push(JSON.stringify(event.metadata));
      if (++cursor.next === cursor.script.events.length) open.splice(index, 1);
    }
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO idem_events (stream_name, revision, event_id, event_type, data, metadata)
         SELECT s, r, i, t, d, m FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) WITH ORDINALITY AS u(s, r, i, t, d, m, o) ORDER BY o`,
        [rows.stream, rows.revision, rows.id, rows.type, rows.data, rows.metadata],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    written += size;
  }
}
