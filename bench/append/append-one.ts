/**
 * How each bench:append contender appends one event, shared by the contender process (contender.ts)
 * and the client-profile diagnostic (profile-client.ts):
 *   idem   - Idem's PostgresEventStore.append(stream, [event], 'no_stream' | revision - 1), as shipped:
 *            appends made in one turn of the event loop share one statement and one commit
 *   idem_per_commit - the same store with groupAppends: false, every append its own commit (the
 *            comparison the raw ceiling was chosen for: what Idem's checks cost per committed append)
 *   emmett - @event-driven-io/emmett-postgresql 0.42 appendToStream(stream, [event], { expectedStreamVersion })
 *            (a new stream's exact expectation is 0n; its versions count events, so revision r expects BigInt(r))
 *   raw    - the ceiling: one `INSERT … ON CONFLICT DO NOTHING` of the same row per commit through pg
 */
import type { Pool } from 'pg';
import type { AppendInput, AppendOne } from './workload';

export function appendOneFor(contender: AppendInput['contender'], pool: Pool, url: string): Promise<AppendOne> {
  if (contender === 'idem' || contender === 'idem_per_commit') return idem(pool, contender === 'idem');
  return contender === 'emmett' ? emmett(pool, url) : raw(pool);
}

async function idem(pool: Pool, groupAppends: boolean): Promise<AppendOne> {
  const { PostgresEventStore } = await import('../../src/event-store/postgres/postgres.event-store');
  const store = new PostgresEventStore(pool, { groupAppends });
  await store.migrate();
  return async (stream, revision, event) => {
    await store.append(stream, [event], revision === 0 ? 'no_stream' : revision - 1);
  };
}

async function emmett(pool: Pool, url: string): Promise<AppendOne> {
  const { getPostgreSQLEventStore } = await import('@event-driven-io/emmett-postgresql');
  const store = getPostgreSQLEventStore(url, { connectionOptions: { pool } });
  return async (stream, revision, event) => {
    await store.appendToStream(stream, [{ type: event.type, data: event.data, metadata: { ...event.metadata, messageId: event.id } }], {
      expectedStreamVersion: BigInt(revision),
    });
  };
}

async function raw(pool: Pool): Promise<AppendOne> {
  await pool.query(`CREATE TABLE IF NOT EXISTS raw_events (
    event_id    uuid  PRIMARY KEY,
    stream_name text  NOT NULL,
    event_type  text  NOT NULL,
    data        jsonb NOT NULL,
    metadata    jsonb NOT NULL
  )`);
  return async (stream, _revision, event) => {
    await pool.query({
      name: 'raw_insert',
      text: 'INSERT INTO raw_events (event_id, stream_name, event_type, data, metadata) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
      values: [event.id, stream, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata)],
    });
  };
}
