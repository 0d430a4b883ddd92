/**
 * The emulator's transaction log and stream index. Like EventStoreDB's log (`TransactionLog/`, `TFPos`): `$all`
 * is write order, a position is a byte offset that grows by the record's size (never +1), and every
 * event is self-committed, so commit == prepare. It survives `restart()`; the id cache does not.
 */
import { randomUUID } from 'node:crypto';

/** Server-side expected-version codes (`src/EventStore.Core/Data/ExpectedVersion.cs`, kurrent-io/KurrentDB v24.10.5). */
export const NO_STREAM = -1n;
export const ANY = -2n;
export const STREAM_EXISTS = -4n;
/** `long.MaxValue`: the revision of a tombstone and the `$tb` of a soft-deleted stream. */
export const LONG_MAX = 9223372036854775807n;
/** `SystemEventTypes.StreamDeleted`: the type of a tombstone. */
export const STREAM_DELETED = '$streamDeleted';

export interface ProposedEvent {
  id: string;
  type: string;
  contentType: string;
  data: Uint8Array;
  metadata: Uint8Array;
}

export interface StoredEvent extends ProposedEvent {
  stream: string;
  revision: bigint;
  position: bigint;
  /** Where the next record starts (`SeqReadResult.RecordPostPosition`): a forward page ends here. */
  postPosition: bigint;
  /** .NET ticks (100 ns) since the Unix epoch, as the server sends them. */
  created: bigint;
}

export interface StreamMetadata {
  $tb?: number;
  $maxCount?: number;
  $maxAge?: number;
  [key: string]: unknown;
}

const TICKS_PER_MS = 10_000n;
const utf8 = new TextEncoder();

/**
 * Bytes a LogV2 prepare record (one event) takes in the log, so positions step as the server's do: the chunk writer's
 * 4-byte length prefix and suffix (`LogRecord.GetSizeWithLengthPrefixAndSuffix`) around `PrepareLogRecord.WriteTo`:
 * record type, version, log position (1 + 1 + 8), flags, transaction position and offset, expected version (2 + 8 + 4
 * + 8), the stream name, event id, correlation id and timestamp ticks (16 + 16 + 8), the event type, then data and
 * metadata each behind an int32 length (kurrent-io/KurrentDB v24.10.5, `TransactionLog/LogRecords/`). Strings are
 * .NET `BinaryWriter.Write(string)`: UTF-8 behind a 7-bit-encoded length.
 */
export function prepareSizeOnDisk(stream: string, type: string, data: Uint8Array, metadata: Uint8Array): number {
  return 8 + 80 + stringSize(stream) + stringSize(type) + data.length + metadata.length;
}

function stringSize(value: string): number {
  let length = utf8.encode(value).length;
  let size = length + 1;
  while (length >= 0x80) {
    length >>= 7;
    size++;
  }
  return size;
}

export class EventLog {
  readonly all: StoredEvent[] = [];
  private readonly streams = new Map<string, { events: StoredEvent[]; tombstone?: StoredEvent }>();
  private readonly listeners = new Set<() => void>();

  constructor(private nextPosition = 4_096n) {}

  /** −1 for a stream without events, `LONG_MAX` once tombstoned. */
  lastRevision(stream: string): bigint {
    const index = this.streams.get(stream);
    if (index?.tombstone) return LONG_MAX;
    return BigInt((index?.events.length ?? 0) - 1);
  }

  eventsOf(stream: string): readonly StoredEvent[] {
    return this.streams.get(stream)?.events ?? [];
  }

  eventAt(stream: string, revision: bigint): StoredEvent | undefined {
    return this.streams.get(stream)?.events[Number(revision)];
  }

  /**
   * What a stream read may see once stream metadata is applied; undefined = nothing readable: never written,
   * soft-deleted or tombstoned (`IndexReader.ReadEventInternal` / `ReadStreamEventsForwardInternal`: NoStream, StreamDeleted).
   */
  readableEvents(stream: string): readonly StoredEvent[] | undefined {
    const events = this.eventsOf(stream);
    if (events.length === 0 || this.isSoftDeleted(stream) || this.lastRevision(stream) === LONG_MAX) return undefined;
    const metadata = this.metadataOf(stream) ?? {};
    let lowest = metadata.$tb ?? 0;
    if (metadata.$maxCount !== undefined) lowest = Math.max(lowest, events.length - metadata.$maxCount);
    const visible = events.slice(Math.min(lowest, events.length));
    if (metadata.$maxAge === undefined) return visible;
    const oldest = BigInt(Date.now() - metadata.$maxAge * 1000) * TICKS_PER_MS;
    return visible.filter((e) => e.created >= oldest);
  }

  /** The event at `revision` if a read of it succeeds (`IndexReader.ReadEvent`). */
  readableEvent(stream: string, revision: bigint): StoredEvent | undefined {
    return this.readableEvents(stream)?.find((e) => e.revision === revision);
  }

  metadataOf(stream: string): StreamMetadata | undefined {
    const last = this.eventsOf(`$$${stream}`).at(-1);
    if (!last) return undefined;
    try {
      return JSON.parse(Buffer.from(last.data).toString('utf8')) as StreamMetadata;
    } catch {
      return undefined;
    }
  }

  /**
   * A soft delete is `$tb = long.MaxValue` (`EventNumber.DeletedStream`) in the metastream (`StorageWriterService.Handle(WriteDelete)`);
   * JSON numbers round it up.
   */
  isSoftDeleted(stream: string): boolean {
    const tb = this.metadataOf(stream)?.$tb;
    return typeof tb === 'number' && tb >= Number(LONG_MAX);
  }

  /**
   * Writes the events at `cur+1…`, and re-creates the stream if it was soft-deleted (`undeleter`).
   */
  append(stream: string, events: ProposedEvent[]): StoredEvent[] {
    const undelete = this.undeleter(stream);
    const first = this.lastRevision(stream) + 1n;
    const written = events.map((event, i) => this.write(stream, first + BigInt(i), event));
    written.push(...undelete(first));
    this.notify();
    return written;
  }

  /** Soft delete: only `{"$tb": long.MaxValue}` (`new StreamMetadata(truncateBefore: DeletedStream)`), replacing any metadata. */
  softDelete(stream: string): StoredEvent {
    const event = this.writeMetadata(stream, `{"$tb":${LONG_MAX}}`);
    this.notify();
    return event;
  }

  /** Hard delete: a `$streamDeleted` record at revision `long.MaxValue`; irreversible. */
  tombstone(stream: string): StoredEvent {
    const event = this.record(stream, LONG_MAX, {
      id: randomUUID(),
      type: STREAM_DELETED,
      contentType: 'application/octet-stream',
      data: new Uint8Array(),
      metadata: new Uint8Array(),
    });
    const index = this.streams.get(stream) ?? { events: [] };
    index.tombstone = event;
    this.streams.set(stream, index);
    this.notify();
    return event;
  }

  /**
   * An append of zero events still writes a (hidden) prepare to its stream, with the empty event type and no data
   * (`StorageWriterService.Handle(WritePrepares)`), and answers with its position. It re-creates a soft-deleted
   * stream as any write that holds does: `IndexWriter.CheckCommit` sets `IsSoftDeleted` on its two Ok paths for zero
   * events ("no data in transaction" under `any`, and expected == current), and `softUndeleteMetastream` does not
   * look at the events at all (KurrentDB v24.10.5). Returns the `$metadata` that re-creation wrote.
   */
  writeEmptyTransaction(stream: string): { position: bigint; undeleted: StoredEvent[] } {
    const undelete = this.undeleter(stream);
    const position = this.nextPosition;
    this.nextPosition += BigInt(prepareSizeOnDisk(stream, '', new Uint8Array(), new Uint8Array()));
    const undeleted = undelete(this.lastRevision(stream) + 1n);
    if (undeleted.length) this.notify();
    return { position, undeleted };
  }

  /**
   * Taken before a write that holds; called after it with the write's first event number, writes what re-creates a
   * soft-deleted stream. `StorageWriterService.Handle(WritePrepares)` (v24.10.5): writing to a soft-deleted stream
   * re-creates it from there (`SoftUndeleteStream`: the current metadata with `$tb = cur + 1`), and writing to the
   * metastream of one does the same with the metastream's latest metadata (`SoftUndeleteMetastream`: `$tb` = the
   * stream's last event number + 1); metadata that is not JSON is left as it is (`SoftUndeleteRawMeta`).
   */
  private undeleter(stream: string): (first: bigint) => StoredEvent[] {
    const original = stream.startsWith('$$') ? stream.slice(2) : undefined;
    const wasSoftDeleted = this.isSoftDeleted(stream);
    const metastreamOfSoftDeleted = original !== undefined && this.isSoftDeleted(original);
    return (first) => {
      const written: StoredEvent[] = [];
      const undelete = (of: string, from: bigint) => {
        const metadata = this.metadataOf(of);
        if (metadata) written.push(this.writeMetadata(of, JSON.stringify({ ...metadata, $tb: Number(from) })));
      };
      if (wasSoftDeleted) undelete(stream, first);
      if (metastreamOfSoftDeleted) undelete(original, this.lastRevision(original) + 1n);
      return written;
    };
  }

  /** Index in `all` of the first event after `position` (exclusive start), by binary search. */
  indexAfter(position: bigint): number {
    let low = 0;
    let high = this.all.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.all[mid].position <= position) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Index of the first event at or after `position` (inclusive start). */
  indexAtOrAfter(position: bigint): number {
    return position === 0n ? 0 : this.indexAfter(position - 1n);
  }

  /** Index of the first event whose own position (p, p) is at or after `pos`, comparing both parts (`TFPos.CompareTo`). */
  indexAtOrAfterPos(pos: { commit: bigint; prepare: bigint }): number {
    if (pos.commit < 0n) return 0;
    return pos.prepare <= pos.commit ? this.indexAtOrAfter(pos.commit) : this.indexAfter(pos.commit);
  }

  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private writeMetadata(stream: string, json: string): StoredEvent {
    const meta = `$$${stream}`;
    const event = {
      id: randomUUID(),
      type: '$metadata',
      contentType: 'application/json',
      data: utf8.encode(json),
      metadata: new Uint8Array(),
    };
    return this.write(meta, this.lastRevision(meta) + 1n, event);
  }

  private write(stream: string, revision: bigint, event: ProposedEvent): StoredEvent {
    const stored = this.record(stream, revision, event);
    const index = this.streams.get(stream) ?? { events: [] };
    index.events.push(stored);
    this.streams.set(stream, index);
    return stored;
  }

  private record(stream: string, revision: bigint, event: ProposedEvent): StoredEvent {
    // The next record starts where this one ends on disk.
    const position = this.nextPosition;
    this.nextPosition += BigInt(prepareSizeOnDisk(stream, event.type, event.data, event.metadata));
    const stored: StoredEvent = {
      ...event,
      id: event.id.toLowerCase(),
      stream,
      revision,
      position,
      postPosition: this.nextPosition,
      created: BigInt(Date.now()) * TICKS_PER_MS,
    };
    this.all.push(stored);
    return stored;
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
