/**
 * One read of the log for every lane of a process (start-projections.ts): each lane subscribes here
 * as it would to the store, and every batch the one shared subscription reads is handed to each lane
 * from memory.
 *
 * Why: a lane of its own per read model family (projection-group.ts) meant one read of the log per
 * lane and wake-up, and every event read once per lane: the audit chain reads every event, so each order
 * event was read twice, and bench:charges paid a quarter more CPU per order (docs/BENCHMARKS.md).
 *
 * The shared read never waits for a lane: batches queue per lane, and a lane whose queue passes
 * `maxQueuedEvents` (its members busy, e.g. with a bulk import) is let go and reads on its own from
 * where it stopped. Each time that read of its own hands it a batch at or past the shared read's
 * position, it closes that read and rejoins. A lane that subscribes behind the shared read starts on a
 * read of its own in the same way. A lane never sees an event twice or misses one: every batch covers
 * the log from its predecessor's checkpoint to its own, and a lane drops what precedes what it has seen.
 *
 * The shared read fetches only what the lanes on it want: when a lane leaves, it is started again, from
 * where it stands, with the narrower union of the remaining lanes' filters; when a lane that wants more
 * joins, with the wider one. Without that, a bulk import that sends the default lane (contacts, the
 * audit chain: every event) to a read of its own left the shared read fetching and decoding every
 * contact event for the payments lane alone, which wants none of them: the log was read twice in full.
 */
import { compareCheckpoints } from '../event-store/checkpoint';
import type {
  Checkpoint,
  EventFilter,
  EventStore,
  EventSubscription,
  SubscribeOptions,
  SubscriptionBatch,
} from '../event-store/event-store.port';
import { unionFilter } from './event-filter';
import { takeMerged } from './read-ahead';

export interface FanOutOptions {
  /** The union of every lane's filter (see unionFilter): the shared read fetches nothing no lane wants. */
  filter?: EventFilter;
  maxBatchSize?: number;
  /** Events a lane may have waiting before it is let go to read on its own (default 2 × maxBatchSize). */
  maxQueuedEvents?: number;
}

export class LogFanOut implements Pick<EventStore, 'subscribeToAll'> {
  /** Lanes on the shared read. */
  private readonly taps = new Set<LaneTap>();
  /** Every lane subscribed, on the shared read or on one of its own. */
  private readonly open = new Set<LaneTap>();
  private shared: EventSubscription | undefined;
  /** What the shared read fetches: the union of the filters of the lanes on it when it was started. */
  private sharedFilter: EventFilter = {};
  /** Checkpoint of the last batch the shared read handed out (or where it started). */
  private position: Checkpoint | undefined;
  /** Position of the last event the shared read handed out (or where it started): at or before `position`. */
  private lastEventPosition: Checkpoint | undefined;
  private readonly reading = new Set<Promise<void>>();
  readonly maxBatchSize: number;
  readonly maxQueuedEvents: number;

  constructor(
    private readonly store: Pick<EventStore, 'subscribeToAll'>,
    private readonly options: FanOutOptions = {},
  ) {
    this.maxBatchSize = options.maxBatchSize ?? 1000;
    this.maxQueuedEvents = options.maxQueuedEvents ?? 2 * this.maxBatchSize;
  }

  /**
   * A lane's view of the log after `options.after`. Shared batches bring every event the shared read
   * fetches for all the lanes on it (the lane's members pick theirs); `options.filter` is what this lane
   * wants (default: the fan-out's `filter`, else every event).
   */
  subscribeToAll(options: SubscribeOptions = {}): EventSubscription {
    const tap = new LaneTap(this, this.store, options.after, options.filter ?? this.options.filter ?? {});
    this.open.add(tap);
    return tap;
  }

  /** Lanes on the shared read, and lanes reading on their own (for tests and status). */
  get lanes(): { shared: number; own: number } {
    return { shared: this.taps.size, own: this.open.size - this.taps.size };
  }

  /**
   * Puts `tap`, which has seen the log up to `after`, on the shared read if it misses nothing by it.
   * A narrowed read's position may be a horizon past its last event (an empty filtered page moves it
   * there), which a lane reading every event never reaches exactly: between the last event the read
   * handed out and that horizon lies nothing the lanes on it want, so a lane past that event joins, and
   * the read starts again from where the lane stands (the others drop what they have already seen).
   */
  join(tap: LaneTap, after: Checkpoint | undefined): boolean {
    if (!this.shared) {
      this.taps.add(tap);
      this.start(after);
    } else if (atOrPast(after, this.position)) {
      this.taps.add(tap);
      if (!sameFilter(unionFilter([this.sharedFilter, tap.filter]), this.sharedFilter)) this.restart(this.position);
    } else if (atOrPast(after, this.lastEventPosition)) {
      this.taps.add(tap);
      this.restart(after);
    } else return false;
    return true;
  }

  /** `tap` leaves the shared read (to read on its own, or for good when `closed`). */
  leave(tap: LaneTap, closed = false): void {
    if (closed) this.open.delete(tap);
    if (!this.taps.delete(tap) || !this.shared) return;
    if (!this.taps.size) this.stopShared();
    else if (!sameFilter(this.wanted(), this.sharedFilter)) this.restart(this.position);
  }

  /** The union of the filters of the lanes on the shared read. */
  private wanted(): EventFilter {
    return unionFilter([...this.taps].map((tap) => tap.filter));
  }

  /**
   * Starts the shared read again, for the lanes on it now, from `after`: where it has handed batches out,
   * or before (a lane drops what it has seen or has queued). A batch the old read had fetched but not
   * handed out is read again by the new one: nothing is skipped.
   */
  private restart(after: Checkpoint | undefined): void {
    this.stopShared();
    this.start(after);
  }

  private stopShared(): void {
    void this.shared?.close();
    this.shared = undefined;
  }

  private start(after: Checkpoint | undefined): void {
    this.sharedFilter = this.wanted();
    const subscription = this.store.subscribeToAll({ after, filter: this.sharedFilter, maxBatchSize: this.maxBatchSize });
    this.shared = subscription;
    this.position = after;
    this.lastEventPosition = after;
    const reading = (async () => {
      try {
        for await (const batch of subscription) {
          if (this.shared !== subscription) return;
          this.position = batch.checkpoint ?? this.position;
          this.lastEventPosition = batch.events.at(-1)?.position ?? this.lastEventPosition;
          for (const tap of this.taps) tap.push(batch);
        }
      } catch (error) {
        if (this.shared !== subscription) return;
        this.shared = undefined;
        // Every lane on it fails and retries through its members' supervisors, rejoining a fresh read.
        for (const tap of [...this.taps]) tap.fail(error);
      }
    })();
    this.reading.add(reading);
    void reading.finally(() => this.reading.delete(reading));
  }

  /** Settles once no shared read is open any more (every lane has closed its subscription). */
  async stopped(): Promise<void> {
    while (this.reading.size) await Promise.all(this.reading);
  }
}

/** Whether two filters pass the same events, as far as their unions (canonical: see unionFilter) tell. */
function sameFilter(a: EventFilter, b: EventFilter): boolean {
  const key = (f: EventFilter) => JSON.stringify(unionFilter([f]));
  return key(a) === key(b);
}

/** Whether a reader that has seen the log up to `seen` misses nothing by going on after `position`. */
function atOrPast(seen: Checkpoint | undefined, position: Checkpoint | undefined): boolean {
  if (position === undefined) return true;
  return seen !== undefined && compareCheckpoints(seen, position) >= 0;
}

/** One lane's subscription: batches from the shared read, or from a read of its own while it is behind. */
class LaneTap implements EventSubscription {
  private queue: SubscriptionBatch[] = [];
  private queuedEvents = 0;
  private closed = false;
  private failure: unknown;
  private wake: (() => void) | undefined;
  /** The read of its own while it is behind the shared read. */
  private own: EventSubscription | undefined;
  private onShared = false;

  constructor(
    private readonly fanOut: LogFanOut,
    private readonly store: Pick<EventStore, 'subscribeToAll'>,
    /** The checkpoint of the last batch handed to the lane: it has seen the log up to there. */
    private seen: Checkpoint | undefined,
    /** What the lane's members want, together: the shared read fetches at least this while the lane is on it. */
    readonly filter: EventFilter,
  ) {}

  /** Queues what the batch brings after what the lane has seen or queued (a restarted shared read may repeat some). */
  push(batch: SubscriptionBatch): void {
    const fresh = after(batch, this.queue.at(-1)?.checkpoint ?? this.seen);
    if (!fresh) return;
    if (this.queuedEvents + fresh.events.length > this.fanOut.maxQueuedEvents) {
      // Its members are busy: let it go rather than hold the shared read or pile up its events.
      this.fanOut.leave(this);
      this.onShared = false;
      this.queue = [];
      this.queuedEvents = 0;
    } else {
      this.queue.push(fresh);
      this.queuedEvents += fresh.events.length;
    }
    this.wake?.();
  }

  fail(error: unknown): void {
    this.failure = error;
    this.onShared = false;
    this.fanOut.leave(this);
    this.wake?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.onShared = false;
    this.fanOut.leave(this, true);
    this.wake?.();
    await this.own?.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SubscriptionBatch> {
    try {
      while (!this.closed) {
        if (this.failure !== undefined) throw this.failure;
        if (!this.onShared) this.onShared = this.fanOut.join(this, this.seen);
        if (!this.onShared) {
          yield* this.readAlone();
          continue;
        }
        const batch = await this.nextShared();
        const fresh = batch && !this.closed ? this.trim(batch) : undefined;
        if (fresh) yield fresh;
      }
    } finally {
      await this.close();
    }
  }

  private async nextShared(): Promise<SubscriptionBatch | undefined> {
    if (!this.queue.length) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    if (!this.queue.length) return undefined;
    const batch = takeMerged(this.queue, this.fanOut.maxBatchSize);
    this.queuedEvents -= batch.events.length;
    return batch;
  }

  /**
   * Reads on its own from where the lane stopped until a batch reaches the shared read's position
   * (the shared read's next batch then starts where that one ends, or before), and rejoins.
   */
  private async *readAlone(): AsyncGenerator<SubscriptionBatch, void, undefined> {
    const own = this.store.subscribeToAll({ after: this.seen, filter: this.filter, maxBatchSize: this.fanOut.maxBatchSize });
    this.own = own;
    try {
      for await (const batch of own) {
        if (this.closed) return;
        const fresh = this.trim(batch);
        // Rejoins before handing the batch on: from here the shared read queues what follows it.
        this.onShared = !this.closed && this.fanOut.join(this, this.seen);
        if (this.onShared) await own.close();
        if (fresh) yield fresh;
        if (this.onShared) return;
      }
    } finally {
      this.own = undefined;
      await own.close();
    }
  }

  /** The batch without what the lane has already seen; undefined when nothing is left. */
  private trim(batch: SubscriptionBatch): SubscriptionBatch | undefined {
    const fresh = after(batch, this.seen);
    if (fresh) this.seen = batch.checkpoint ?? this.seen;
    return fresh;
  }
}

/** What `batch` brings after `seen`; undefined when its checkpoint is not past `seen`. */
function after(batch: SubscriptionBatch, seen: Checkpoint | undefined): SubscriptionBatch | undefined {
  if (seen === undefined) return batch;
  if (batch.checkpoint !== undefined && compareCheckpoints(batch.checkpoint, seen) <= 0) return undefined;
  if (!batch.events.length || compareCheckpoints(batch.events[0].position, seen) > 0) return batch;
  return { ...batch, events: batch.events.filter((event) => compareCheckpoints(event.position, seen) > 0) };
}
