/**
 * The PostgreSQL adapter of the event-store port: the embedded default and a production store in
 * its own right. An append is one round trip: one plain statement for a single event with no_stream or
 * an exact revision (the command handlers' case), a prepared call of `idem_append` otherwise; a
 * single-event append whose expectation fails takes a second trip to tell a conflict from a
 * retried duplicate (see append-statements.ts and schema.ts).
 */
import { EventEmitter } from 'node:events';
import type { Pool } from 'pg';
import { DEFAULT_MAX_APPEND_BYTES, assertValidName, prepareAppend } from '../append-validation';
import { appendNothing } from '../append-nothing';
import { encodeCheckpoint } from '../checkpoint';
import { InvalidAppend, WrongExpectedVersion } from '../errors';
import type {
  AppendResult,
  Checkpoint,
  EventStore,
  EventSubscription,
  EventToAppend,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
} from '../event-store.port';
import { applyMigrations } from '../../database/migrate';
import { queryKeepingConnection } from '../../database/query-keeping-connection';
import { APPEND_GROUP_SQL, APPEND_ONE_AT_REVISION_SQL, APPEND_ONE_TO_NEW_STREAM_SQL, IDEM_APPEND_SQL } from './append-statements';
import { EVENT_STORE_MIGRATIONS } from './schema';
import { groupKey, groupedAppends, type OneAppend } from './grouped-appends';
import {
  EVENT_COLUMNS,
  EVENT_ROW_MODE,
  EVENT_ROW_TYPES,
  HELD_BACK_QUERY,
  readAllQuery,
  toRecordedEvent,
  type EventRow,
} from './read-all.query';
import { PostgresSubscription } from './postgres.subscription';
import { wholeStreamReads } from './whole-stream-reads';

export interface PostgresEventStoreOptions {
  maxAppendBytes?: number;
  /** How often an idle subscription looks for new events written by other processes. */
  pollIntervalMs?: number;
  /** How long a subscription waits after an append in this process before it reads (default 0). */
  appendWakeDelayMs?: number;
  /**
   * Write the single-event appends made in one turn of the event loop as one statement and one
   * commit (grouped-appends.ts; default true). False: every append commits on its own.
   */
  groupAppends?: boolean;
}

interface AppendRow {
  outcome: 'appended' | 'duplicate' | 'conflict';
  last_revision: string;
  last_txid: string | null;
  last_sequence: string | null;
}

const UNIQUE_VIOLATION = '23505';
const EVENT_ID_CONSTRAINT = 'idem_events_event_id';
const REVISION_CONSTRAINT = 'idem_events_pkey';
const constraintOf = (error: unknown) => (error as { constraint?: string }).constraint;

const EXPECTED_CODES: Record<'any' | 'no_stream' | 'stream_exists', number> = { no_stream: -1, any: -2, stream_exists: -4 };

/**
 * Named statements are prepared once per connection, and from their sixth run PostgreSQL may keep a
 * generic plan costed on the table's size at that moment. Made on a nearly empty events table, that
 * plan scans the table instead of using the (stream, revision) key, and keeps scanning as the table
 * grows until autovacuum's ANALYZE invalidates it: on a fresh database, bench:append read 36 million
 * rows that way in its first 20 s. So the statements whose plan depends on the table's size run
 * unnamed (planned on each call, on the table's real size) until the table is big enough for the key
 * to win any plan: at least YOUNG_TABLE_PAGES pages when the store starts, or YOUNG_TABLE_APPENDS
 * appends made by this process since.
 */
const YOUNG_TABLE_PAGES = 64;
const YOUNG_TABLE_APPENDS = 2_000;

export class PostgresEventStore implements EventStore {
  /** Wakes this process's subscribers as soon as one of its own appends commits. */
  private readonly appended = new EventEmitter().setMaxListeners(0);
  private appendsUntilPrepared = YOUNG_TABLE_APPENDS;
  readonly maxAppendBytes: number;
  private readonly pollIntervalMs: number;
  private readonly appendWakeDelayMs: number;
  private readonly groupAppends: boolean;
  private readonly groupedAppends = groupedAppends(
    (append) => this.appendOne(append),
    (json) => this.writeGroup(json),
  );
  private readonly wholeStreamReads = wholeStreamReads(
    (stream) => this.readStreamAlone(stream, {}),
    (streams) => this.readWholeStreams(streams),
  );

  constructor(
    private readonly pool: Pool,
    options: PostgresEventStoreOptions = {},
  ) {
    this.maxAppendBytes = options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES;
    this.pollIntervalMs = options.pollIntervalMs ?? 20;
    this.appendWakeDelayMs = options.appendWakeDelayMs ?? 0;
    this.groupAppends = options.groupAppends ?? true;
  }

  /** Creates or upgrades the schema; safe to call from several processes at once. */
  async migrate(): Promise<void> {
    await applyMigrations(this.pool, 'idem_event_store_migrations', EVENT_STORE_MIGRATIONS);
    const { rows } = await this.pool.query<{ pages: string }>(
      `SELECT pg_relation_size('idem_events') / current_setting('block_size')::int AS pages`,
    );
    if (Number(rows[0].pages) >= YOUNG_TABLE_PAGES) this.appendsUntilPrepared = 0;
  }

  /** The statement name to prepare under, or undefined (unnamed) while the events table is young. */
  private preparedName(name: string): string | undefined {
    return this.appendsUntilPrepared > 0 ? undefined : name;
  }

  async append(stream: string, events: EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    const { data, metadata } = prepareAppend(stream, events, expected, this.maxAppendBytes);
    if (events.length === 0) return appendNothing(stream, expected, await this.lastEvent(stream));
    const expectedCode = typeof expected === 'number' ? expected : EXPECTED_CODES[expected];
    let row: AppendRow;
    try {
      if (events.length === 1 && expectedCode >= -1) {
        const one = { stream, expectedCode, event: events[0], data: data[0], metadata: metadata[0] };
        const position = await (this.groupAppends ? this.groupedAppends.submit(one) : this.appendOne(one));
        if (position) return this.appendedAt(expectedCode + 1, position);
      }
      row = await this.appendMany(stream, expectedCode, events, data, metadata);
    } catch (error) {
      if (constraintOf(error) === EVENT_ID_CONSTRAINT) throw await this.eventIdTaken(stream, expected, events);
      throw error;
    }
    const lastRevision = Number(row.last_revision);
    if (row.outcome === 'conflict') {
      throw new WrongExpectedVersion(stream, expected, lastRevision < 0 ? 'no_stream' : lastRevision);
    }
    const position = encodeCheckpoint(row.last_txid!, row.last_sequence!);
    return row.outcome === 'appended' ? this.appendedAt(lastRevision, position) : { nextRevision: lastRevision, position };
  }

  private appendedAt(nextRevision: number, position: Checkpoint): AppendResult {
    if (this.appendsUntilPrepared > 0) this.appendsUntilPrepared--;
    this.appended.emit('appended');
    return { nextRevision, position };
  }

  /**
   * One event with no_stream or an exact revision: one plain statement (append-statements.ts) answering the new
   * event's position. Undefined when the expectation did not hold as written, which idem_append then
   * sorts into conflict or duplicate.
   */
  private async appendOne({ stream, expectedCode, event, data, metadata }: OneAppend): Promise<Checkpoint | undefined> {
    const isNew = expectedCode === -1;
    try {
      // A refused insert is an expected answer here: keep the connection (see queryKeepingConnection).
      const { rows } = await queryKeepingConnection<{ position: Checkpoint }>(this.pool, {
        // A new stream's insert has no plan to choose; the exact one checks its predecessor by key.
        name: isNew ? 'idem_append_one_new' : this.preparedName('idem_append_one_at'),
        text: isNew ? APPEND_ONE_TO_NEW_STREAM_SQL : APPEND_ONE_AT_REVISION_SQL,
        values: isNew ? [stream, event.id, event.type, data, metadata] : [stream, event.id, event.type, data, metadata, expectedCode],
      });
      return rows[0]?.position;
    } catch (error) {
      // The revision or the id is taken: a conflict or a retried duplicate, which idem_append tells apart.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return undefined;
      throw error;
    }
  }

  /** Several single-event appends in one statement (append-statements.ts, APPEND_GROUP_SQL): the rows it wrote. */
  private async writeGroup(json: string): Promise<Map<string, Checkpoint>> {
    const { rows } = await queryKeepingConnection<{ stream_name: string; event_id: string; revision: string; position: Checkpoint }>(
      this.pool,
      {
        name: this.preparedName('idem_append_group'),
        text: APPEND_GROUP_SQL,
        values: [json],
      },
    );
    return new Map(rows.map((row) => [groupKey(row.stream_name, row.event_id, row.revision), row.position]));
  }

  /**
   * The general append (idem_append). A fast-path writer may take the revision the function read as
   * free; the primary key then refuses it and we call again, in a new transaction: a retry inside the
   * first one would keep its older transaction id and sort before that writer's event in `$all`
   * (idem-append-v4.migration.ts). Each race means another append got in, so this ends.
   */
  private async appendMany(
    stream: string,
    expectedCode: number,
    events: EventToAppend[],
    data: string[],
    metadata: string[],
  ): Promise<AppendRow> {
    for (;;) {
      try {
        const { rows } = await queryKeepingConnection<AppendRow>(this.pool, {
          name: 'idem_append',
          text: IDEM_APPEND_SQL,
          values: [
            stream,
            expectedCode,
            events.map((e) => e.id),
            events.map((e) => e.type),
            `[${data.join(',')}]`,
            `[${metadata.join(',')}]`,
          ],
        });
        return rows[0];
      } catch (error) {
        if (constraintOf(error) !== REVISION_CONSTRAINT) throw error;
      }
    }
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    assertValidName('STREAM_NAME', stream);
    const whole = options.direction !== 'backwards' && !options.fromRevision && options.maxCount === undefined;
    return whole ? this.wholeStreamReads.submit(stream) : this.readStreamAlone(stream, options);
  }

  private async readStreamAlone(stream: string, options: ReadStreamOptions): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const limit = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const from = options.fromRevision ?? (backwards ? Number.MAX_SAFE_INTEGER : 0);
    const { rows } = await this.pool.query<EventRow>({
      ...EVENT_ROW_MODE,
      name: this.preparedName(backwards ? 'idem_read_stream_backwards' : 'idem_read_stream_forwards'),
      text: `SELECT ${EVENT_COLUMNS} FROM idem_events WHERE stream_name = $1 AND revision ${backwards ? '<=' : '>='} $2
              ORDER BY revision ${backwards ? 'DESC' : 'ASC'} LIMIT $3`,
      values: [stream, from, limit],
    });
    return rows.map(toRecordedEvent);
  }

  /** Several whole streams in one query (see whole-stream-reads.ts). */
  private async readWholeStreams(streams: string[]): Promise<Map<string, RecordedEvent[]>> {
    const { rows } = await this.pool.query<EventRow>({
      ...EVENT_ROW_MODE,
      name: this.preparedName('idem_read_whole_streams'),
      text: `SELECT ${EVENT_COLUMNS} FROM idem_events WHERE stream_name = ANY($1::text[]) ORDER BY stream_name, revision`,
      values: [streams],
    });
    const byStream = new Map<string, RecordedEvent[]>();
    for (const row of rows) {
      const event = toRecordedEvent(row);
      const events = byStream.get(event.stream);
      if (events) events.push(event);
      else byStream.set(event.stream, [event]);
    }
    return byStream;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(readAllQuery(options));
    return rows.map(toRecordedEvent);
  }

  subscribeToAll(options: SubscribeOptions = {}): EventSubscription {
    return new PostgresSubscription(this.pool, this.appended, this.pollIntervalMs, options, this.appendWakeDelayMs);
  }

  async heldBackSince(): Promise<Date | undefined> {
    const { rows } = await this.pool.query<{ created_ms: number }>({ text: HELD_BACK_QUERY, types: EVENT_ROW_TYPES });
    return rows.length ? new Date(rows[0].created_ms) : undefined;
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT FROM idem_events LIMIT 1');
  }

  async close(): Promise<void> {
    this.appended.emit('closed');
  }

  /**
   * An id of this append is already stored. In this stream but not where the append expected it: a
   * conflict (never written twice). In another stream: event ids are unique across this store.
   */
  private async eventIdTaken(stream: string, expected: ExpectedRevision, events: EventToAppend[]): Promise<Error> {
    const { rows } = await this.pool.query<{ event_id: string }>(
      'SELECT event_id FROM idem_events WHERE event_id = ANY($1::uuid[]) AND stream_name <> $2 LIMIT 1',
      [events.map((e) => e.id), stream],
    );
    if (rows.length)
      return new InvalidAppend(
        'EVENT_ID',
        `Event id ${rows[0].event_id} is already used by another stream (event ids are unique across the store)`,
      );
    return new WrongExpectedVersion(stream, expected, await this.currentRevision(stream));
  }

  private async currentRevision(stream: string): Promise<number | 'no_stream'> {
    return (await this.lastEvent(stream))?.revision ?? 'no_stream';
  }

  private async lastEvent(stream: string): Promise<RecordedEvent | undefined> {
    const [last] = await this.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return last;
  }
}
