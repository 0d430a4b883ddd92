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
  /** Checkpoint of the last batch the shared read handed out (or where it started). */
  private position: Checkpoint | undefined;
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
   * A lane's view of the log after `options.after`. Shared batches bring every event the fan-out reads
   * (the lane's members pick theirs); `options.filter` narrows only the lane's reads of its own.
   */
  subscribeToAll(options: SubscribeOptions = {}): EventSubscription {
    const tap = new LaneTap(this, this.store, options.after, options.filter ?? this.options.filter);
    this.open.add(tap);
    return tap;
  }

  /** Lanes on the shared read, and lanes reading on their own (for tests and status). */
  get lanes(): { shared: number; own: number } {
    return { shared: this.taps.size, own: this.open.size - this.taps.size };
  }

  /** Puts `tap` on the shared read if nothing between `after` and the shared read's position is missing. */
  join(tap: LaneTap, after: Checkpoint | undefined): boolean {
    if (!this.shared) this.start(after);
    else if (!atOrPast(after, this.position)) return false;
    this.taps.add(tap);
    return true;
  }

  /** `tap` leaves the shared read (to read on its own, or for good when `closed`). */
  leave(tap: LaneTap, closed = false): void {
    if (closed) this.open.delete(tap);
    this.taps.delete(tap);
    if (this.taps.size || !this.shared) return;
    void this.shared.close();
    this.shared = undefined;
  }

  private start(after: Checkpoint | undefined): void {
    const subscription = this.store.subscribeToAll({ after, filter: this.options.filter, maxBatchSize: this.maxBatchSize });
    this.shared = subscription;
    this.position = after;
    const reading = (async () => {
      try {
        for await (const batch of subscription) {
          if (this.shared !== subscription) return;
          this.position = batch.checkpoint ?? this.position;
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
    private readonly filter: EventFilter | undefined,
  ) {}

  push(batch: SubscriptionBatch): void {
    if (this.queuedEvents + batch.events.length > this.fanOut.maxQueuedEvents) {
      // Its members are busy: let it go rather than hold the shared read or pile up its events.
      this.fanOut.leave(this);
      this.onShared = false;
      this.queue = [];
      this.queuedEvents = 0;
    } else {
      this.queue.push(batch);
      this.queuedEvents += batch.events.length;
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
    const { seen } = this;
    if (seen !== undefined && batch.checkpoint !== undefined && compareCheckpoints(batch.checkpoint, seen) <= 0) return undefined;
    const events = seen === undefined ? batch.events : batch.events.filter((event) => compareCheckpoints(event.position, seen) > 0);
    this.seen = batch.checkpoint ?? seen;
    return { ...batch, events };
  }
}
