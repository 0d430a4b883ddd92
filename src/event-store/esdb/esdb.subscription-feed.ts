/**
 * One `subscribeToAll` call, as an ordered list of items: events, server checkpoints and the moment the
 * server said `caught_up`.
 *
 * The client reports events through its stream but checkpoints (a callback) and `caughtUp` (an event)
 * beside it, at the moment it *parses* them — while earlier events may still sit unread in its buffer
 * (esdb.md §3.4). To put each signal back in its place, it is pinned behind the number of events the
 * client had produced by then: those already taken out plus `readableLength`. Taking events out with
 * synchronous `read()` calls keeps that count exact (`read()` runs the transform before it removes the
 * chunk it returns, so a signal raised during a `read()` still counts that chunk as buffered).
 */
import { START, type AllStreamSubscription, type EventStoreDBClient, type Position, type ResolvedEvent } from '@eventstore/db-client';
import type { serverFilterOf } from './esdb.filter';

export type FeedItem = { kind: 'event'; resolved: ResolvedEvent } | { kind: 'checkpoint'; position: Position } | { kind: 'caught-up' };

export class SubscriptionFeed {
  private items: FeedItem[] = [];
  private readonly pinned: Array<{ after: number; item: FeedItem }> = [];
  private produced = 0;
  private finished = false;
  private failure: unknown;
  private wake: (() => void) | undefined;
  private readonly subscription: AllStreamSubscription;

  constructor(
    client: EventStoreDBClient,
    /** Exclusive; undefined = from the start of `$all`. */
    from: Position | undefined,
    filter: ReturnType<typeof serverFilterOf>,
    /** Items held before the feed stops reading, which pushes back on the server. */
    private readonly highWater: number,
  ) {
    this.subscription = client.subscribeToAll({
      fromPosition: from ?? START,
      filter: { ...filter, checkpointInterval: 1, checkpointReached: (_, position) => this.pin({ kind: 'checkpoint', position }) },
    });
    this.subscription.on('caughtUp', () => this.pin({ kind: 'caught-up' }));
    this.subscription.on('readable', () => this.pull());
    this.subscription.on('end', () => this.finish(undefined));
    this.subscription.on('error', (error) => this.finish(error));
  }

  /** Why the server call ended, once `take()` has returned nothing; undefined for a clean (status OK) end. */
  get error(): unknown {
    return this.failure;
  }

  /** Everything received so far, waiting for at least one item; empty once the call has ended and is drained. */
  async take(): Promise<FeedItem[]> {
    for (;;) {
      this.pull();
      if (this.items.length) {
        const taken = this.items;
        this.items = [];
        this.pull();
        return taken;
      }
      if (this.finished) return [];
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  close(): void {
    if (!this.finished) void this.subscription.unsubscribe().catch(() => undefined);
    this.finish(undefined);
  }

  private pin(item: FeedItem): void {
    const after = this.produced + this.subscription.readableLength;
    if (after <= this.produced) this.items.push(item);
    else this.pinned.push({ after, item });
    this.wake?.();
  }

  private pull(): void {
    // After an error the client's buffer still holds what arrived before it: drain it too.
    while (this.items.length < this.highWater) {
      const resolved = this.subscription.read() as ResolvedEvent | null;
      if (resolved === null) break;
      this.items.push({ kind: 'event', resolved });
      this.produced++;
      while (this.pinned.length && this.pinned[0].after <= this.produced) this.items.push(this.pinned.shift()!.item);
    }
    if (this.items.length) this.wake?.();
  }

  private finish(error: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.failure = error;
    this.wake?.();
  }
}
