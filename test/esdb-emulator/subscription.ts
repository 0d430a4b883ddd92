/**
 * Catch-up subscriptions on `Streams.Read` (`Grpc/Streams.Read.cs`), following the server's enumerators (tags
 * v24.10.4/v24.10.5, `src/EventStore.Core/Services/Transport/Enumerators/`):
 * `Enumerator.AllSubscriptionFiltered.MainLoop` — confirmation; a start is converted by
 * `ConvertCheckpoint` (none → `HeadOfTf`, `End` → the last indexed position) and a start at or after the
 * last indexed position goes live at once, with no checkpoint; otherwise `CatchUp` (see
 * `catch-up-checkpoints.ts`), then `GoLive`: `caught_up`, live events after the checkpoint, a live
 * checkpoint every `window × multiplier` events committed since the subscription registered, counted
 * through catch-up too (`SubscriptionsService.ProcessEventCommited`, at the event's position). More than `MaxLiveEventBufferCount` (32) events behind, it falls behind: a
 * checkpoint, catch-up again, `caught_up` again (`fell_behind` itself is not sent:
 * `Grpc/Streams.Read.cs`, "currently not sent to clients"). Events and checkpoints never go backwards
 * (`MoveNextAsync`). Unfiltered `$all` and stream subscriptions send no checkpoints. A stream subscription
 * (`Enumerator.StreamSubscription`) catches up by reading the stream (stream-catch-up.ts) and is refused, or ended, by
 * the stream's tombstone.
 */
import { randomUUID } from 'node:crypto';
import type { ServerWritableStream } from '@grpc/grpc-js';
import { CatchUpFailed, runCatchUp, WireCheckpoints } from './catch-up-checkpoints';
import type { DropKind, EmulatorContext, SubscriptionState } from './context';
import { LONG_MAX, STREAM_DELETED, type EventLog, type StoredEvent } from './event-log';
import { filterOf, hiddenFromAll, type EventFilter } from './filters';
import { streamsPb, type StreamsPb } from './proto';
import { rpcErrors, type RpcError } from './rpc-errors';
import { send } from './send';
import { HEAD_OF_TF, compareTfPos, eventPos, hasEndCheckpointQuirk, type TfPos } from './tf-pos';
import { readResponse } from './resolve-links';
import { runStreamCatchUp } from './stream-catch-up';
import { idFormOf, streamNameOf, type IdForm } from './wire';

type Call = ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>;
const Options = streamsPb.ReadReq.Options;
const MAX_LIVE_EVENT_BUFFER_COUNT = 32;
/**
 * Live events the transport takes before the subscription waits for the client. The server's
 * enumerator hands each one to Kestrel, whose output buffer (`KestrelServerLimits.MaxResponseBufferSize`,
 * 64 KiB) and the HTTP/2 window hold a few hundred small events before a slow reader pushes back; grpc-js
 * pushes back after 16 messages, which would make the emulator fall behind far sooner than a server.
 */
const LIVE_TRANSPORT_BUFFER = 512;

/** What a subscription delivers and where it starts (`ConvertCheckpoint`). */
interface Target {
  matches(event: StoredEvent): boolean;
  start: TfPos;
  /** Set for `$all` with a filter: only those get checkpoints. */
  filter?: EventFilter;
  /** Set for stream subscriptions: a tombstone ends them with StreamDeleted. */
  stream?: string;
  /** Stream subscriptions: the revision after which events are sent (`ConvertCheckpoint`; −1 from the start). */
  after: bigint;
  /** `resolveLinkTos` (resolve-links.ts). */
  resolveLinks: boolean;
  /** The request's `uuid_option` (wire.ts). */
  idForm: IdForm;
}

export function startSubscription(ctx: EmulatorContext, call: Call, options: StreamsPb.ReadReq.Options): void {
  let target: Target;
  try {
    target = targetOf(ctx.log, options);
  } catch (error) {
    return void call.emit('error', error);
  }
  // `AllSubscriptionFiltered`'s constructor: `ArgumentOutOfRangeException.ThrowIfZero(checkpointIntervalMultiplier)`
  // (KurrentDB v24.10.5), thrown before the confirmation and escaping the handler: UNKNOWN.
  if (target.filter?.multiplier === 0) return void call.emit('error', rpcErrors.handlerException());
  // `SubscriptionsService.Handle(ClientMessage.SubscribeToStream)`: a tombstoned stream (`GetStreamLastEventNumber` is
  // `EventNumber.DeletedStream`) is answered `SubscriptionDropped(StreamDeleted)`, on which
  // `Enumerator.StreamSubscription.SubscribeToLive` throws `ReadResponseException.StreamDeleted` before the
  // confirmation (KurrentDB v24.10.5): the call ends with StreamDeleted and nothing else.
  if (target.stream !== undefined && ctx.log.lastRevision(target.stream) === LONG_MAX)
    return void call.emit('error', rpcErrors.streamDeleted(target.stream));
  const subscription = new Subscription(ctx.log, call, target, hasEndCheckpointQuirk(ctx.settings.serverVersion));
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
  /** The server's `checkpoint`: the event or checkpoint position most recently sent on. */
  private checkpoint: TfPos;
  /** Index in `log.all` of the next event to consider live. */
  private next = 0;
  /** Stream subscriptions: the revision most recently sent on (`StreamSubscription`'s `checkpoint`). */
  private after: bigint;
  /**
   * Events in `log.all` when the subscription registered for live events, before confirmation and
   * catch-up (`MainLoop` calls `SubscribeToLive` first). `SubscriptionsService.ProcessEventCommited`
   * counts every event committed after that, during catch-up too, and emits a live checkpoint at each
   * `interval`-th (KurrentDB v24.10.5, `Services/SubscriptionsService.cs`); an interval of 0 (a
   * `max` window of 0) makes every event one.
   */
  private registered = 0;
  private readonly checkpoints: WireCheckpoints;

  constructor(
    private readonly log: EventLog,
    private readonly call: Call,
    private readonly target: Target,
    private readonly quirk: boolean,
  ) {
    this.checkpoint = target.start;
    this.after = target.after;
    this.checkpoints = new WireCheckpoints(call, quirk);
  }

  async run(): Promise<void> {
    const unsubscribe = this.log.onAppend(() => this.wake?.());
    try {
      this.registered = this.log.all.length;
      const lastIndexed = this.registered ? eventPos(this.log.all[this.registered - 1].position) : HEAD_OF_TF;
      const confirmation = new streamsPb.ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID());
      if (!(await send(this.call, new streamsPb.ReadResp().setConfirmation(confirmation)))) return;
      if (compareTfPos(this.checkpoint, lastIndexed) >= 0) this.next = this.registered;
      else if (!(await this.catchUp())) return;
      while (!this.closed) {
        if (!(await send(this.call, new streamsPb.ReadResp().setCaughtUp(new streamsPb.ReadResp.CaughtUp())))) return;
        this.caughtUp = true;
        if (!(await this.live())) return;
        this.caughtUp = false;
        if (this.target.filter && !(await this.checkpoints.send(this.checkpoint))) return;
        if (!(await this.catchUp())) return;
      }
    } catch (error) {
      // An exception in the enumerator ends the call once what it queued is sent: UNKNOWN.
      if (!(error instanceof CatchUpFailed)) throw error;
      if (!this.closed) this.call.emit('error', rpcErrors.handlerException());
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

  /** Reads from the checkpoint until the log runs out; false once the call is gone. */
  private async catchUp(): Promise<boolean> {
    const sendEvent = (event: StoredEvent) => this.sendEvent(event);
    if (this.target.stream !== undefined) {
      const end = await runStreamCatchUp(this.log, this.target.stream, this.after, sendEvent);
      if (end.kind === 'deleted') this.fail(rpcErrors.streamDeleted(this.target.stream));
      if (end.kind !== 'caught-up') return false;
      this.next = end.nextIndex;
      return !this.closed;
    }
    const ended = await runCatchUp(
      this.log,
      this.checkpoint,
      this.target.filter,
      this.target.matches,
      this.quirk,
      sendEvent,
      this.checkpoints,
    );
    if (!ended) return false;
    this.checkpoint = ended.checkpoint;
    this.next = ended.nextIndex;
    return !this.closed;
  }

  /** Live until the subscriber falls behind (true) or the call ends (false). */
  private async live(): Promise<boolean> {
    while (!this.closed) {
      if (this.log.all.length - this.next > MAX_LIVE_EVENT_BUFFER_COUNT) return true;
      if (this.next === this.log.all.length) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      const counted = this.next - this.registered + 1;
      const event = this.log.all[this.next++];
      const position = eventPos(event.position);
      if (compareTfPos(position, this.checkpoint) > 0 && this.target.matches(event)) {
        if (!(await this.sendEvent(event, true))) return false;
      }
      // `FilteredSubscribeToStream` gets `(int)_checkpointInterval` (`Enumerator.AllSubscriptionFiltered.GoLive`), unchecked:
      // −1 is `DontReportCheckpointReached`, and any other interval ≤ 0 is reached at every event
      // (`SubscriptionsService.ProcessEventCommited`, v24.10.5).
      const interval = this.target.filter && this.target.filter.checkpointInterval | 0;
      if (interval !== undefined && interval !== -1 && (interval <= 0 || counted % interval === 0)) {
        if (compareTfPos(position, this.checkpoint) >= 0) {
          this.checkpoint = position;
          if (!(await this.checkpoints.send(position))) return false;
        }
      }
    }
    return false;
  }

  /** `live`: taken from the live channel (`GoLive`), not read in a catch-up. */
  private async sendEvent(event: StoredEvent, live = false): Promise<boolean> {
    const buffered = this.caughtUp ? LIVE_TRANSPORT_BUFFER : 0;
    if (
      this.closed ||
      !(await send(this.call, readResponse(this.log, event, this.target.resolveLinks, live, this.target.idForm), buffered))
    )
      return false;
    this.checkpoint = eventPos(event.position);
    this.sent++;
    if (this.target.stream === undefined) return true;
    this.after = event.revision;
    // `StreamSubscription.SendEventToSubscription`: an event of type `$streamDeleted` (a tombstone, met live) is sent on,
    // then ends the subscription with StreamDeleted.
    if (event.type !== STREAM_DELETED) return true;
    this.fail(rpcErrors.streamDeleted(this.target.stream));
    return false;
  }

  private fail(error: RpcError): void {
    if (this.closed) return;
    this.stop();
    this.call.emit('error', error);
  }
}

function targetOf(log: EventLog, options: StreamsPb.ReadReq.Options): Target {
  const lastIndexed = () => (log.all.length ? eventPos(log.all.at(-1)!.position) : HEAD_OF_TF);
  if (options.getStreamOptionCase() === Options.StreamOptionCase.STREAM) {
    const streamOptions = options.getStream()!;
    const stream = streamNameOf(streamOptions.getStreamIdentifier());
    const Case = Options.StreamOptions.RevisionOptionCase;
    const revisionCase = streamOptions.getRevisionOptionCase();
    // `StreamSubscription.ConvertCheckpoint`: start → −1, `End` → the stream's last event number, N → N.
    const after =
      revisionCase === Case.REVISION ? BigInt(streamOptions.getRevision()) : revisionCase === Case.END ? log.lastRevision(stream) : -1n;
    return {
      stream,
      after,
      resolveLinks: options.getResolveLinks(),
      idForm: idFormOf(options),
      matches: (event) => event.stream === stream && event.revision > after,
      start: revisionCase === Case.END ? lastIndexed() : HEAD_OF_TF,
    };
  }
  const all = options.getAll()!;
  const Case = Options.AllOptions.AllOptionCase;
  const filter = filterOf(options);
  const position = all.getPosition();
  const start =
    all.getAllOptionCase() === Case.POSITION
      ? { commit: BigInt(position!.getCommitPosition()), prepare: BigInt(position!.getPreparePosition()) }
      : all.getAllOptionCase() === Case.END
        ? lastIndexed()
        : HEAD_OF_TF;
  return {
    filter,
    start,
    after: -1n,
    resolveLinks: options.getResolveLinks(),
    idForm: idFormOf(options),
    matches: (event) => !hiddenFromAll(event) && (!filter || filter.matches(event)),
  };
}
