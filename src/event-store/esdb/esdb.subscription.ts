/**
 * `subscribeToAll` on EventStoreDB: catch-up then live, and it outlives the connection. The client
 * never resubscribes by itself (esdb.md §3.4, §5.3): a server that ends the call with status OK just
 * ends it, one that goes away raises UNAVAILABLE or CANCELLED. Every such drop resubscribes after the last
 * event received, immediately the first time and then with growing pauses while the server is away.
 * Any other error (access denied, …) ends the iteration with that error. A server that stops answering
 * without closing its connections (paused, frozen) is noticed by the client's keep-alive, which ends the
 * call UNAVAILABLE like any other drop (esdb.keepalive.ts); the resubscription then waits for the server.
 * The consumer never sees a drop: its iteration goes on after the last event it was given.
 */
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { Checkpoint, EventSubscription, SubscribeOptions, SubscriptionBatch } from '../event-store.port';
import { BatchAssembler } from './esdb.batches';
import { toCheckpoint, toPosition } from './esdb.conversions';
import { isConnectionDrop } from './esdb.errors';
import { eventMatcher, serverFilterOf } from './esdb.filter';
import { SubscriptionFeed } from './esdb.subscription-feed';

export interface ResubscribePolicy {
  /** Pause after the first failed attempt; doubled per further failure. */
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RESUBSCRIBE: ResubscribePolicy = { initialDelayMs: 50, maxDelayMs: 2_000 };

/** A subscription call that ended without a verdict and is being resubscribed: what ended it, and after which event it resumes. */
export interface SubscriptionDrop {
  /** The client's error (UnavailableError, CancelledError, …); undefined when the server ended the call with status OK. */
  error: unknown;
  /** Exclusive; undefined = from the start of `$all`. */
  resumeAfter: Checkpoint | undefined;
}

export class EsdbSubscription implements EventSubscription {
  private closed = false;
  private feed: SubscriptionFeed | undefined;
  private interruptPause: (() => void) | undefined;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly options: SubscribeOptions,
    private readonly policy: ResubscribePolicy = DEFAULT_RESUBSCRIBE,
    private readonly onClose: () => void = () => undefined,
    private readonly onDrop: (drop: SubscriptionDrop) => void = () => undefined,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<SubscriptionBatch> {
    const maxBatchSize = this.options.maxBatchSize ?? 1000;
    const batches = new BatchAssembler(
      this.options.after && toPosition(this.options.after),
      eventMatcher(this.options.filter),
      maxBatchSize,
    );
    const filter = serverFilterOf(this.options.filter);
    let failures = 0;
    while (!this.closed) {
      const feed = (this.feed = new SubscriptionFeed(this.client, batches.resumeFrom, filter, 2 * maxBatchSize));
      let received = false;
      try {
        for (let items = await feed.take(); items.length && !this.closed; items = await feed.take()) {
          received = true;
          for (const batch of batches.assemble(items)) yield batch;
        }
      } finally {
        feed.close();
      }
      if (this.closed) return;
      if (feed.error !== undefined && !isConnectionDrop(feed.error)) throw feed.error;
      const resumeFrom = batches.resumeFrom;
      this.onDrop({ error: feed.error, resumeAfter: resumeFrom && toCheckpoint(resumeFrom) });
      failures = received ? 0 : failures + 1;
      await this.pause(failures);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.onClose();
    this.feed?.close();
    this.interruptPause?.();
  }

  /** No pause after a call that delivered something: the server is there, only that call ended. */
  private pause(failures: number): Promise<void> {
    if (failures === 0) return Promise.resolve();
    const delay = Math.min(this.policy.maxDelayMs, this.policy.initialDelayMs * 2 ** (failures - 1));
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, delay);
      this.interruptPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
