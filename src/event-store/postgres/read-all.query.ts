/**
 * The one query behind `readAll` and `subscribeToAll`. Only transactions older than the oldest one
 * still in flight are read, so the (transaction id, sequence) order never changes after a read.
 */
import type { QueryConfig } from 'pg';
import { decodeCheckpoint, encodeCheckpoint } from '../checkpoint';
import type { EventFilter, ReadAllOptions, RecordedEvent } from '../event-store.port';

export interface EventRow {
  stream_name: string;
  revision: string;
  event_id: string;
  event_type: string;
  data: Record<string, unknown>;
  metadata: RecordedEvent['metadata'];
  transaction_id: string;
  sequence: string;
  created: Date;
}

const COLUMNS = 'stream_name, revision, event_id, event_type, data, metadata, transaction_id, sequence, created';
const SETTLED = 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())';

export function readAllQuery(options: ReadAllOptions): QueryConfig {
  const backwards = options.direction === 'backwards';
  const values: unknown[] = [];
  const where = [SETTLED];
  if (options.after) {
    const { major, minor } = decodeCheckpoint(options.after);
    values.push(major.toString(), minor.toString());
    where.push(`(transaction_id, sequence) ${backwards ? '<' : '>'} ($1::xid8, $2::bigint)`);
  }
  where.push(...filterClauses(options.filter, values));
  values.push(options.maxCount ?? 1000);
  const order = backwards ? 'DESC' : 'ASC';
  return {
    text: `SELECT ${COLUMNS} FROM idem_events WHERE ${where.join(' AND ')}
            ORDER BY transaction_id ${order}, sequence ${order} LIMIT $${values.length}`,
    values,
  };
}

function filterClauses(filter: EventFilter | undefined, values: unknown[]): string[] {
  const clauses: string[] = [];
  if (filter?.streamCategories?.length) {
    values.push(filter.streamCategories);
    clauses.push(`category = ANY($${values.length}::text[])`);
  }
  if (filter?.eventTypes?.length) {
    values.push(filter.eventTypes);
    clauses.push(`event_type = ANY($${values.length}::text[])`);
  }
  return clauses;
}

/** The point below which everything has settled: a filtered subscriber may move its checkpoint there. */
export const SETTLED_HORIZON_QUERY = `SELECT (pg_snapshot_xmin(pg_current_snapshot())::text::numeric - 1)::text AS below`;

export const MAX_SEQUENCE = 9223372036854775807n;

export function horizonCheckpoint(below: string) {
  return encodeCheckpoint(below, MAX_SEQUENCE);
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    stream: row.stream_name,
    revision: Number(row.revision),
    position: encodeCheckpoint(row.transaction_id, row.sequence),
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    created: row.created,
  };
}
