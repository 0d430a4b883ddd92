/**
 * Turns feed items into the port's batches and remembers how far the subscription got, across
 * reconnections, so that nothing is delivered twice or skipped.
 *
 * Two positions are kept. The consumer's checkpoint advances with events and with the server's
 * checkpoints (so a filtered subscription makes progress over foreign events). Resubscribing and
 * de-duplicating rely only on the last *event* received: some server versions send a checkpoint at the
 * position where the next event will be written (esdb.md §5.4), and trusting it would drop that event.
 * A server checkpoint that is no place in the log (`End`, see `isLogPosition`) is ignored.
 */
import type { Position } from '@eventstore/db-client';
import type { Checkpoint, SubscriptionBatch } from '../event-store.port';
import { comparePositions, isLogPosition, positionOf, toCheckpoint, toRecordedEvent } from './esdb.conversions';
import type { FeedItem } from './esdb.subscription-feed';
import type { eventMatcher } from './esdb.filter';

export class BatchAssembler {
  /** Exclusive start of any resubscription: the last event received, else where the caller started. */
  resumeFrom: Position | undefined;
  private progress: Position | undefined;
  private caughtUp = false;
  private lastCheckpoint: Checkpoint | undefined;

  constructor(
    after: Position | undefined,
    private readonly matches: ReturnType<typeof eventMatcher>,
    private readonly maxBatchSize: number,
  ) {
    // A checkpoint at `End` could only have been stored from the bogus checkpoint of servers 24.10.0–24.10.4
    // (before this adapter refused it); resuming after it delivers nothing ever again, so start over.
    const start = after && isLogPosition(after) ? after : undefined;
    this.resumeFrom = this.progress = start;
    this.lastCheckpoint = start && toCheckpoint(start);
  }

  /**
   * A batch ends at `maxBatchSize` events and right at `caught_up`, so the first caught-up batch ends
   * exactly where history ended. A batch that brings nothing new (no event, no progress) is not emitted.
   */
  assemble(items: FeedItem[]): SubscriptionBatch[] {
    const batches: SubscriptionBatch[] = [];
    let events: SubscriptionBatch['events'] = [];
    let caughtUpNow = false;
    const flush = () => {
      const checkpoint = this.progress && toCheckpoint(this.progress);
      if (events.length || caughtUpNow || checkpoint !== this.lastCheckpoint) batches.push({ events, checkpoint, caughtUp: this.caughtUp });
      this.lastCheckpoint = checkpoint;
      events = [];
      caughtUpNow = false;
    };
    for (const item of items) {
      if (item.kind === 'caught-up') {
        caughtUpNow = !this.caughtUp;
        this.caughtUp = true;
        flush();
      } else if (item.kind === 'checkpoint') {
        // As (commit, 0) — the shape of the server's own catch-up checkpoints — a checkpoint never claims an
        // event at its commit position that is not delivered yet (esdb.md §5.4).
        if (isLogPosition(item.position)) this.advance({ commit: item.position.commit, prepare: 0n });
      } else {
        const position = positionOf(item.resolved);
        // The server never repeats or reorders; this guard makes that an invariant of the adapter too.
        if (!position || (this.resumeFrom && comparePositions(position, this.resumeFrom) <= 0)) continue;
        this.resumeFrom = position;
        this.advance(position);
        if (this.matches(item.resolved)) events.push(toRecordedEvent(item.resolved));
        if (events.length === this.maxBatchSize) flush();
      }
    }
    flush();
    return batches;
  }

  private advance(position: Position): void {
    if (!this.progress || comparePositions(position, this.progress) > 0) this.progress = position;
  }
}
