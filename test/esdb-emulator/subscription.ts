/**
 * Catch-up subscriptions on `Streams.Read` (esdb.md §3.4): confirmation → catch-up in pages of 32 →
 * (filtered: a checkpoint) → `caught_up` → live. Starts are exclusive; nothing is ever sent twice or out
 * of order; filtered subscriptions checkpoint every `window × multiplier` considered events and never
 * backwards. A subscriber that falls more than the live buffer behind goes back to catch-up reads and is
 * told `caught_up` again; `fell_behind` is never sent (v24.10).
 */
import { randomUUID } from 'node:crypto';
import type { ServerWritableStream } from '@grpc/grpc-js';
import type { DropKind, EmulatorContext, SubscriptionState } from './context';
import { LONG_MAX, type EventLog, type StoredEvent } from './event-log';
import { READ_BATCH_SIZE, filterOf, hiddenFromAll, type EventFilter } from './filters';
import { streamsPb, type StreamsPb } from './proto';
import { rpcErrors } from './rpc-errors';
import { send } from './send';
import { checkpointResponse, eventResponse, streamNameOf } from './wire';

type Call = ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>;
const Options = streamsPb.ReadReq.Options;
const LIVE_BUFFER = 32;

/** Where a subscription reads from: `$all` by log index, or one stream by revision. */
interface Source {
  pending(): number;
  take(max: number): StoredEvent[];
  matches(event: StoredEvent): boolean;
  startPosition?: bigint;
  /** Set for stream subscriptions: a tombstone ends them with StreamDeleted. */
  stream?: string;
}

export function startSubscription(ctx: EmulatorContext, call: Call, options: StreamsPb.ReadReq.Options): void {
  const subscription = new Subscription(ctx.log, call, sourceOf(ctx.log, options), filterOf(options));
  ctx.subscriptions.add(subscription);
  ctx.stats.subscriptionsOpened++;
  call.on('cancelled', () => subscription.stop());
  void subscription.run().finally(() => ctx.subscriptions.delete(subscription));
}

class Subscription implements SubscriptionState {
  caughtUp = false;
  sent = 0;
  private closed = false;
  private wake: (() => void) | undefined;
  private lastSent: bigint | undefined;
  private lastCheckpoint: bigint | undefined;
  private considered = 0;

  constructor(
    private readonly log: EventLog,
    private readonly call: Call,
    private readonly source: Source,
    private readonly filter: EventFilter | undefined,
  ) {}

  async run(): Promise<void> {
    const unsubscribe = this.log.onAppend(() => this.wake?.());
    try {
      const confirmation = new streamsPb.ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID());
      if (!(await send(this.call, new streamsPb.ReadResp().setConfirmation(confirmation)))) return;
      while (!this.closed) {
        if (this.source.stream && this.log.lastRevision(this.source.stream) === LONG_MAX) {
          return void this.call.emit('error', rpcErrors.streamDeleted(this.source.stream));
        }
        const pending = this.source.pending();
        if (this.caughtUp && pending > LIVE_BUFFER) this.caughtUp = false;
        if (pending > 0) {
          if (!(await this.deliver(this.source.take(READ_BATCH_SIZE)))) return;
        } else if (!this.caughtUp) {
          if (this.filter && !(await this.checkpoint(max(this.lastSent, this.lastCheckpoint, this.source.startPosition)))) return;
          if (!(await send(this.call, new streamsPb.ReadResp().setCaughtUp(new streamsPb.ReadResp.CaughtUp())))) return;
          this.caughtUp = true;
        } else {
          await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = undefined;
        }
      }
    } finally {
      unsubscribe();
    }
  }

  /** Ends the call the way a server does: status OK, UNAVAILABLE ("Server Is Not Ready") or CANCELLED. */
  drop(kind: DropKind): void {
    if (this.closed) return;
    this.stop();
    if (kind === 'ok') this.call.end();
    else this.call.emit('error', kind === 'unavailable' ? rpcErrors.notReady() : rpcErrors.cancelled());
  }

  stop(): void {
    this.closed = true;
    this.wake?.();
  }

  private async deliver(page: StoredEvent[]): Promise<boolean> {
    for (const event of page) {
      if (this.closed) return false;
      if (this.source.matches(event)) {
        if (!(await send(this.call, eventResponse(event)))) return false;
        this.lastSent = event.position;
        this.sent++;
      }
      // Live: a checkpoint at the event just considered, every interval.
      if (this.caughtUp && this.filter && ++this.considered >= this.filter.checkpointInterval) {
        this.considered = 0;
        if (!(await this.checkpoint(event.position))) return false;
      }
    }
    // Catch-up: after the page, at the later of the last event sent and where the page started.
    if (!this.caughtUp && this.filter && (this.considered += page.length) >= this.filter.checkpointInterval) {
      this.considered = 0;
      return this.checkpoint(max(this.lastSent, page[0].position));
    }
    return true;
  }

  private async checkpoint(position: bigint | undefined): Promise<boolean> {
    if (position === undefined || (this.lastCheckpoint !== undefined && position < this.lastCheckpoint)) return true;
    this.lastCheckpoint = position;
    return send(this.call, checkpointResponse(position));
  }
}

function max(...positions: Array<bigint | undefined>): bigint | undefined {
  return positions.reduce<bigint | undefined>((a, b) => (b === undefined || (a !== undefined && a >= b) ? a : b), undefined);
}

function sourceOf(log: EventLog, options: StreamsPb.ReadReq.Options): Source {
  const filter = filterOf(options);
  if (options.getStreamOptionCase() === Options.StreamOptionCase.STREAM) {
    const streamOptions = options.getStream()!;
    const stream = streamNameOf(streamOptions.getStreamIdentifier());
    const Case = Options.StreamOptions.RevisionOptionCase;
    const revisionCase = streamOptions.getRevisionOptionCase();
    let next = revisionCase === Case.REVISION ? Number(streamOptions.getRevision()) + 1 : revisionCase === Case.END ? log.eventsOf(stream).length : 0;
    return {
      stream,
      pending: () => Math.max(0, log.eventsOf(stream).length - next),
      take: (count) => {
        const page = log.eventsOf(stream).slice(next, next + count);
        next += page.length;
        return page;
      },
      matches: () => true,
    };
  }
  const all = options.getAll()!;
  const Case = Options.AllOptions.AllOptionCase;
  const startPosition = all.getAllOptionCase() === Case.POSITION ? BigInt(all.getPosition()!.getCommitPosition()) : undefined;
  let next = startPosition !== undefined ? log.indexAfter(startPosition) : all.getAllOptionCase() === Case.END ? log.all.length : 0;
  return {
    startPosition,
    pending: () => log.all.length - next,
    take: (count) => {
      const page = log.all.slice(next, next + count);
      next += page.length;
      return page;
    },
    matches: (event) => !hiddenFromAll(event) && (!filter || filter.matches(event)),
  };
}
