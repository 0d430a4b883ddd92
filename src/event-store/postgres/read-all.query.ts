/**
 * The one query behind `readAll` and `subscribeToAll`. Only transactions older than the oldest one
 * still in flight are read, so the (transaction id, sequence) order never changes after a read.
 */
import type { QueryConfig } from 'pg';
import { checkpointThrough, decodeCheckpoint, encodeCheckpoint } from '../checkpoint';
import type { EventFilter, EventFilterAlternative, ReadAllOptions, RecordedEvent } from '../event-store.port';

/**
 * One event row as the reads fetch it: an array in EVENT_COLUMNS order (`rowMode: 'array'`), which
 * spares the driver building a keyed object per row that toRecordedEvent would throw away.
 */
export type EventRow = [
  streamName: string,
  revision: string,
  eventId: string,
  eventType: string,
  data: Record<string, unknown>,
  metadata: RecordedEvent['metadata'],
  transactionId: string,
  sequence: string,
  /** Commit time in whole milliseconds since the epoch. */
  createdMs: number,
];

/**
 * Every read selects these, in this order. `created` travels as exact integer milliseconds (a
 * float8) rather than as timestamptz text, whose parsing in `pg` costs about five times as much per
 * row; trunc() keeps the truncation to milliseconds the driver applied before.
 */
export const EVENT_COLUMNS =
  'stream_name, revision, event_id, event_type, data, metadata, transaction_id, sequence, trunc(extract(epoch FROM created) * 1000)::float8';

const OID = { int8: 20, float8: 701, json: 114, jsonb: 3802 } as const;
const asText = (value: string) => value;

/**
 * The parsers the event reads use, fixed here instead of taken from `pg`'s process-wide registry:
 * another library in the process (Emmett sets int8 to BigInt) cannot change what a read returns.
 * Everything not listed stays text.
 */
export const EVENT_ROW_TYPES = {
  getTypeParser(oid: number, format?: string): (value: string) => unknown {
    if (format === 'binary') throw new Error('event reads use the text format');
    switch (oid) {
      case OID.json:
      case OID.jsonb:
        return JSON.parse;
      case OID.float8:
        return parseFloat;
      default:
        return asText; // int8 (revision, sequence), xid8, uuid, text
    }
  },
};

/** Query settings shared by every event read (array rows, fixed parsers). */
export const EVENT_ROW_MODE = { rowMode: 'array', types: EVENT_ROW_TYPES } as const;

const SETTLED = 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())';

/**
 * The first event past the settled horizon that this snapshot sees: committed, yet read by no one until
 * every older transaction in flight ends. Its `created` is its transaction's start (now()), so the age
 * slightly overstates a long writer's own wait. One probe of the (transaction_id, sequence) index.
 */
export const HELD_BACK_QUERY = `SELECT trunc(extract(epoch FROM created) * 1000)::float8 AS created_ms FROM idem_events
  WHERE NOT (${SETTLED}) ORDER BY transaction_id, sequence LIMIT 1`;

export function readAllQuery(options: ReadAllOptions): QueryConfig {
  const backwards = options.direction === 'backwards';
  const values: unknown[] = [];
  const where = [SETTLED];
  if (options.after) {
    const { major, minor } = decodeCheckpoint(options.after);
    values.push(major.toString(), minor.toString());
    where.push(`(transaction_id, sequence) ${backwards ? '<' : '>'} ($1::xid8, $2::bigint)`);
  }
  const filter = filterClause(options.filter, values);
  if (filter) where.push(unestimated(filter));
  values.push(options.maxCount ?? 1000);
  const order = backwards ? 'DESC' : 'ASC';
  return {
    ...EVENT_ROW_MODE,
    text: `SELECT ${EVENT_COLUMNS} FROM idem_events WHERE ${where.join(' AND ')}
            ORDER BY transaction_id ${order}, sequence ${order} LIMIT $${values.length}`,
    values,
  };
}

/**
 * A filtered subscription's page and the settled horizon in one statement, hence one snapshot: the
 * horizon is exactly what that read could see settle, as when it was read just before the page, but
 * one round trip instead of two (live lag: every poll of every filtered subscription paid both).
 * Each row is an EventRow plus `below`; an empty page is one row whose event columns are NULL.
 */
export function readPageWithHorizonQuery(options: ReadAllOptions): QueryConfig {
  const page = readAllQuery(options);
  return {
    ...page,
    text: `SELECT e.*, h.below FROM (${SETTLED_HORIZON_QUERY}) h LEFT JOIN LATERAL (${page.text}) e ON true`,
  };
}

export type EventRowWithHorizon = [...EventRow, below: string];

/**
 * The page's events in log order. The lateral join returns the inner ORDER BY's order (a nested loop
 * over one outer row), which SQL does not promise: checked, and sorted if ever needed.
 */
export function pageEvents(rows: EventRowWithHorizon[]): RecordedEvent[] {
  if (rows.length === 1 && rows[0][0] === null) return [];
  let ordered = true;
  for (let i = 1; i < rows.length && ordered; i++) ordered = compareRowPositions(rows[i - 1], rows[i]) < 0;
  if (!ordered) rows = [...rows].sort(compareRowPositions);
  return rows.map((row) => toRecordedEvent(row as unknown as EventRow));
}

/** Decimal strings of unsigned integers compare by length, then text. */
function compareRowPositions(a: EventRowWithHorizon, b: EventRowWithHorizon): number {
  return compareDecimal(a[6], b[6]) || compareDecimal(a[7], b[7]);
}

function compareDecimal(x: string, y: string): number {
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The filter, hidden from the planner's row estimate. Seen as it is, `split_part(…) = ANY(…)` gets
 * the default selectivity of an unknown expression (0.5 %), so PostgreSQL expects a handful of
 * matches and reads EVERY settled event after the checkpoint (bitmap scan), then sorts them for the
 * first page, instead of walking the (transaction id, sequence) index and stopping at the page's
 * end. Whenever a subscriber lags (a push of 1,000 contacts appends 1,800 events at once) each page
 * then cost the whole lag: 110 ms for 1,000 of 12,000 events, the database's largest cost in
 * bench:import. A CASE is estimated at one half, which makes the ordered index walk the plan.
 */
function unestimated(clause: string): string {
  return `CASE WHEN ${clause} THEN true ELSE false END`;
}

/** Whether reads with `filter` may skip events (a subscription then moves on to the settled horizon past them). */
export function filtersEvents(filter: EventFilter | undefined): boolean {
  return filterClause(filter, []) !== undefined;
}

/**
 * The filter as one condition, its values bound as parameters (appended to `values`): the filter's
 * own fields ANDed, and with them an OR of its alternatives. Undefined when it lets every event through.
 */
function filterClause(filter: EventFilter | undefined, values: unknown[]): string | undefined {
  if (!filter) return undefined;
  const clauses = conjunction(filter, values);
  // An alternative that restricts nothing makes the OR true, so the alternatives add no condition (and
  // bind none of their values: PostgreSQL refuses a parameter the statement never uses, untyped).
  const alternatives = filter.anyOf ?? [];
  if (alternatives.length && alternatives.every((a) => a.streamCategories?.length || a.eventTypes?.length)) {
    clauses.push(`(${alternatives.map((a) => `(${conjunction(a, values).join(' AND ')})`).join(' OR ')})`);
  }
  return clauses.length ? clauses.join(' AND ') : undefined;
}

function conjunction(filter: EventFilterAlternative, values: unknown[]): string[] {
  const clauses: string[] = [];
  if (filter.streamCategories?.length) {
    values.push(filter.streamCategories);
    // The category is the stream name up to its first dash (see streamCategory); computed here rather
    // than stored, so that appends do not evaluate a generated column.
    clauses.push(`split_part(stream_name, '-', 1) = ANY($${values.length}::text[])`);
  }
  if (filter.eventTypes?.length) {
    values.push(filter.eventTypes);
    clauses.push(`event_type = ANY($${values.length}::text[])`);
  }
  return clauses;
}

/** The point below which everything has settled: a filtered subscriber may move its checkpoint there. */
export const SETTLED_HORIZON_QUERY = `SELECT (pg_snapshot_xmin(pg_current_snapshot())::text::numeric - 1)::text AS below`;

export function horizonCheckpoint(below: string) {
  return checkpointThrough(below);
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row[2],
    stream: row[0],
    revision: Number(row[1]),
    position: encodeCheckpoint(row[6], row[7]),
    type: row[3],
    data: row[4],
    metadata: row[5],
    created: new Date(row[8]),
  };
}
