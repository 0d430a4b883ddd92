/**
 * The event-store port: the one contract both adapters (PostgreSQL, EventStoreDB) implement and that
 * `test/contracts/event-store.contract.ts` proves. Semantics follow EventStoreDB (reference/esdb.md §1–2)
 * so that moving between stores changes nothing a caller can observe.
 *
 * Revisions are 0-based per stream (the first event is revision 0) and are plain numbers: a stream
 * will never hold 2^53 events, and numbers survive JSON. Global positions are carried inside the
 * opaque {@link Checkpoint} string.
 */
import type { Checkpoint } from './checkpoint';

export type { Checkpoint } from './checkpoint';

/** What the writer believes about the stream before appending. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

/** Who did it and why: carried by every event (DESIGN.md §4). */
export interface EventMetadata {
  correlationId: string;
  causationId: string;
  actor: { role: string; tokenId: string };
  /** ISO-8601 time at which the command handler recorded the event. */
  recordedAt: string;
  /**
   * The hash of the stream's previous event (null for its first), set by every append Idem makes
   * (src/command-handling/hash-link.ts): the links of a stream form a tamper-evident chain.
   */
  previousEventHash?: string | null;
  [extra: string]: unknown;
}

export interface EventToAppend {
  /** A UUID. Deterministic for retried commands, so a retried append is recognised (see `deterministicEventId`). */
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

export interface RecordedEvent {
  id: string;
  stream: string;
  revision: number;
  /** The event's place in the global order; resuming from it yields only later events. */
  position: Checkpoint;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  /** When the store committed it. */
  created: Date;
}

export interface AppendResult {
  /** Revision of the last event written (or, for a recognised duplicate, of the original last event). */
  nextRevision: number;
  /** Global position of that event. */
  position: Checkpoint;
}

export type Direction = 'forwards' | 'backwards';

export interface ReadStreamOptions {
  direction?: Direction;
  /** Inclusive; default: the first event forwards, the last backwards. */
  fromRevision?: number;
  maxCount?: number;
}

/** What one filter, or one alternative of a filter's `anyOf`, requires: its categories AND its types. */
export interface EventFilterAlternative {
  /** Stream categories (the part before the first dash), e.g. `order`. */
  streamCategories?: string[];
  eventTypes?: string[];
}

/**
 * Which events a read or a subscription returns. A field left out, or given as an empty list,
 * restricts nothing; what is given is ANDed: `{ streamCategories: ['order'], eventTypes: ['ChargeSucceeded'] }`
 * passes only `ChargeSucceeded` events of `order-…` streams, `{}` passes every event.
 *
 * `anyOf` lists alternatives: an event passes when it matches at least one of them (each ANDs its own
 * categories and types), e.g. every order event, and the import runs' `ImportRunStarted`:
 * `{ anyOf: [{ streamCategories: ['order'] }, { streamCategories: ['import'], eventTypes: ['ImportRunStarted'] }] }`.
 * An alternative that restricts nothing lets every event through. Beside `anyOf`, the top-level fields
 * still apply (ANDed with it): `{ eventTypes: ['X'], anyOf: [{ streamCategories: ['a'] }, { streamCategories: ['b'] }] }`
 * passes `X` events of `a` and `b` streams.
 */
export interface EventFilter extends EventFilterAlternative {
  anyOf?: EventFilterAlternative[];
}

export interface ReadAllOptions {
  direction?: Direction;
  /**
   * Exclusive: forwards returns events after this checkpoint, backwards events before it.
   * Omitted: from the start (forwards) or the end (backwards).
   */
  after?: Checkpoint;
  maxCount?: number;
  filter?: EventFilter;
}

export interface SubscribeOptions {
  /** Exclusive; omitted = from the start of history. */
  after?: Checkpoint;
  filter?: EventFilter;
  /** Largest batch handed to the consumer (default 1000). */
  maxBatchSize?: number;
}

/**
 * One step of a subscription. `checkpoint` is where a consumer that has processed `events` resumes;
 * it may advance without events (a filtered subscription skipping foreign events). `caughtUp` is true
 * once the subscriber has seen everything committed when the batch was read.
 */
export interface SubscriptionBatch {
  events: RecordedEvent[];
  checkpoint: Checkpoint | undefined;
  caughtUp: boolean;
}

/** Catch-up then live; ends only when `close()` is called. */
export interface EventSubscription extends AsyncIterable<SubscriptionBatch> {
  close(): Promise<void>;
}

/**
 * Every adapter is linearizable (test/linearizability): concurrent calls answer as if each took
 * effect at one instant between its call and its answer, in an order that EventStoreDB's decision
 * table (reference esdb.md §1.2, §2.1) would answer. In particular an append is answered "written"
 * only when its own expectation was written, whatever other appends of the same ids run beside it.
 */
export interface EventStore {
  /**
   * Appends atomically. Throws `WrongExpectedVersion` when the expectation does not hold. Re-appending
   * events whose ids already sit in the stream at the expected revisions writes nothing and returns the
   * original result; a partial overlap is a `WrongExpectedVersion`. Throws `StreamDeleted` when the store
   * refuses the stream for good (deleted outside Idem: an EventStoreDB tombstone; PostgreSQL has no deletes).
   */
  append(stream: string, events: EventToAppend[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * The largest append this store takes, in bytes (data + metadata + 2 × type length per event); a
   * bigger one is refused whole. Callers that record many events split them to fit (append-linked.ts).
   * Absent: DEFAULT_MAX_APPEND_BYTES, EventStoreDB's default.
   */
  readonly maxAppendBytes?: number;
  /** A stream that does not exist reads as empty, and so does one deleted outside Idem (the port has no deletes). */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Each stream's events appear in increasing revision order, as in EventStoreDB's `$all`. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Gap-free: an event that commits late is still delivered, in `readAll` order. */
  subscribeToAll(options?: SubscribeOptions): EventSubscription;
  /**
   * When the oldest event that is written but not yet readable was written; undefined when there is none.
   * Only a store whose global order waits for older transactions has such events: on PostgreSQL a
   * transaction still in flight anywhere in the cluster holds every event committed after it back from
   * every reader (read-all.query.ts), so one left open stops every projection while their lag, which
   * counts what they could read, stays 0. Absent on EventStoreDB, where a written event is readable at once.
   */
  heldBackSince?(): Promise<Date | undefined>;
  /** Cheap reachability probe for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Nest injection token of the process's one {@link EventStore}. */
export const EVENT_STORE = Symbol('EVENT_STORE');
