/**
 * `Streams.Read` for plain reads (`Services/Transport/Grpc/Streams.Read.cs`, kurrent-io/KurrentDB v24.10.5); subscriptions go to `subscription.ts`. Stream reads are
 * inclusive in both directions and honour stream metadata (`$tb`, `$maxCount`, `$maxAge`); `$all` reads
 * are inclusive forwards, exclusive backwards, and ignore stream metadata. Server source, v24.10.5:
 * `IndexReader.ReadStreamEventsBackwardInternal` reads from `fromEventNumber` itself (the last event for `End`) down to
 * `max(last − $maxCount + 1, $tb)`, drops events older than `$maxAge`, answers NoStream for a stream without events or
 * with `$tb = long.MaxValue` (soft-deleted) and StreamDeleted for a tombstone, as the forward read does;
 * `AllReader.ReadAllEventsBackwardInternal` takes only records that end at or before the position, so not the event
 * at it. A missing `uuid_option` is `RpcExceptions.RequiredArgument`, a missing stream option `InvalidArgument`, both
 * INVALID_ARGUMENT (`Streams.Read.cs`).
 */
import type { ServerWritableStream } from '@grpc/grpc-js';
import { pause, type EmulatorContext } from './context';
import { LONG_MAX, type EventLog, type StoredEvent } from './event-log';
import { streamsPb, type StreamsPb } from './proto';
import { notHandled, requiresLeader } from './node-state';
import { combinationRefusal } from './read-combinations';
import { rpcErrors } from './rpc-errors';
import { send } from './send';
import { startSubscription } from './subscription';
import { allFilterOf } from './filters';
import { readResponse } from './resolve-links';
import { idFormOf, streamIdentifier, streamNameOf, type IdForm } from './wire';

type Call = ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>;
/** ulong.MaxValue: `StreamRevision.End` on the wire. */
const ULONG_MAX = 2n ** 64n - 1n;
const Options = streamsPb.ReadReq.Options;

export function readRpc(ctx: EmulatorContext) {
  return (call: Call) => {
    const options = call.request.getOptions();
    if (!options || !options.hasUuidOption()) {
      return void call.emit('error', rpcErrors.invalidArgument('uuid_option is required'));
    }
    if (options.getStreamOptionCase() === Options.StreamOptionCase.STREAM_OPTION_NOT_SET) {
      return void call.emit('error', rpcErrors.invalidArgument('Either stream or all must be set'));
    }
    const invalid = combinationRefusal(options);
    if (invalid) return void call.emit('error', invalid);
    const denied = notHandled(ctx, requiresLeader(call.metadata));
    if (denied) return void call.emit('error', denied);
    if (options.getCountOptionCase() === Options.CountOptionCase.SUBSCRIPTION) return startSubscription(ctx, call, options);
    void answer(ctx, call, options).then(
      () => call.end(),
      (error: unknown) => call.emit('error', error),
    );
  };
}

async function answer(ctx: EmulatorContext, call: Call, options: StreamsPb.ReadReq.Options): Promise<void> {
  await pause(ctx.delayMs);
  const backwards = options.getReadDirection() === Options.ReadDirection.BACKWARDS;
  const count = Number(options.getCount());
  if (options.getStreamOptionCase() === Options.StreamOptionCase.STREAM) {
    const refusal = streamReadRefusal(options.getStream()!, backwards, count);
    if (refusal) throw refusal;
    const stream = streamNameOf(options.getStream()!.getStreamIdentifier());
    if (ctx.log.lastRevision(stream) === LONG_MAX) throw rpcErrors.streamDeleted(stream);
    const events = ctx.log.readableEvents(stream);
    if (!events) {
      const notFound = new streamsPb.ReadResp.StreamNotFound().setStreamIdentifier(streamIdentifier(stream));
      return void (await send(call, new streamsPb.ReadResp().setStreamNotFound(notFound)));
    }
    await sendAll(ctx, call, streamSlice(events, options.getStream()!, backwards, count), options.getResolveLinks(), idFormOf(options));
    return;
  }
  // A `$all` read of 0 events never ends: each page asks for `Math.Min(ReadBatchSize, 0)` events, the reader returns
  // none from where it started, and a page with fewer events than asked for is the end only when that is fewer than
  // 0 (`ReadAllEvents{Forward,Backward}Completed.IsEndOfStream`, `ClientMessage.cs`; the filtered reader never reaches
  // its end flag), so `Enumerator.ReadAll*` reads the same page again until the call is cancelled or its deadline
  // passes (v24.10.5). The call ends then, with nothing sent.
  if (count === 0) return new Promise<void>((resolve) => call.once('cancelled', () => resolve()));
  await sendAll(
    ctx,
    call,
    allSlice(ctx.log, options.getAll()!, backwards, count, allFilterOf(options)),
    options.getResolveLinks(),
    idFormOf(options),
  );
}

/**
 * Stream reads the server refuses before it looks at the stream, so whether it exists or not:
 * - a revision above long.MaxValue other than ulong.MaxValue (`End`): `new StreamRevision(…)` throws while the
 *   enumerator is built (`ReadReq.cs` `ToStreamRevision`, `Common/StreamRevision.cs`), escaping the handler: UNKNOWN
 *   "Exception was thrown by handler.";
 * - a count of 0 (`IndexReader.ReadStreamEvents{Forward,Backward}Internal`: `Ensure.Positive(maxCount)`) or a forward
 *   read from `End` (its −1 fails `Ensure.Nonnegative(fromEventNumber)`): the storage reader catches the exception and
 *   answers `ReadStreamResult.Error` (`StorageReaderWorker.ReadStreamEventsForward`/`Backward`), which the enumerator
 *   reports as `RpcExceptions.UnknownError`: UNKNOWN "Unexpected ReadStreamResult: Error"
 *   (`Enumerator.ReadStreamForwards`/`Backwards`, v24.10.5).
 */
function streamReadRefusal(options: StreamsPb.ReadReq.Options.StreamOptions, backwards: boolean, count: number) {
  const Case = Options.StreamOptions.RevisionOptionCase;
  const revision = options.getRevisionOptionCase() === Case.REVISION ? BigInt(options.getRevision()) : undefined;
  if (revision !== undefined && revision > LONG_MAX && revision !== ULONG_MAX) return rpcErrors.handlerException();
  const fromEnd = options.getRevisionOptionCase() === Case.END || revision === ULONG_MAX;
  if (count === 0 || (fromEnd && !backwards)) return rpcErrors.unknown('Unexpected ReadStreamResult: Error');
  return undefined;
}

function* streamSlice(events: readonly StoredEvent[], options: StreamsPb.ReadReq.Options.StreamOptions, backwards: boolean, count: number) {
  const Case = Options.StreamOptions.RevisionOptionCase;
  const revisionCase = options.getRevisionOptionCase();
  const from = revisionCase === Case.REVISION ? BigInt(options.getRevision()) : revisionCase === Case.END ? LONG_MAX : 0n;
  let sent = 0;
  if (backwards) {
    for (let i = events.length - 1; i >= 0 && sent < count; i--) if (events[i].revision <= from && ++sent) yield events[i];
  } else {
    for (const event of events) if (sent < count && event.revision >= from && ++sent) yield event;
  }
}

function* allSlice(
  log: EventLog,
  options: StreamsPb.ReadReq.Options.AllOptions,
  backwards: boolean,
  count: number,
  matches: (e: StoredEvent) => boolean,
) {
  const Case = Options.AllOptions.AllOptionCase;
  const wire = options.getAllOptionCase() === Case.POSITION ? options.getPosition()! : undefined;
  const position = wire && BigInt(wire.getCommitPosition());
  const atEnd = options.getAllOptionCase() === Case.END;
  let sent = 0;
  if (backwards) {
    for (let i = (position === undefined ? log.all.length : log.indexAtOrAfter(position)) - 1; i >= 0 && sent < count; i--) {
      if (matches(log.all[i]) && ++sent) yield log.all[i];
    }
  } else {
    // Inclusive of an event at (commit, prepare) ≥ the start, both parts compared (`AllReader.ReadAllEventsForwardInternal`).
    const first = atEnd
      ? log.all.length
      : wire
        ? log.indexAtOrAfterPos({ commit: position!, prepare: BigInt(wire.getPreparePosition()) })
        : 0;
    for (let i = first; i < log.all.length && sent < count; i++) {
      if (matches(log.all[i]) && ++sent) yield log.all[i];
    }
  }
}

async function sendAll(
  ctx: EmulatorContext,
  call: Call,
  events: Iterable<StoredEvent>,
  resolveLinks: boolean,
  form: IdForm,
): Promise<void> {
  for (const event of events) {
    await pause(ctx.readPaceMs);
    if (!(await send(call, readResponse(ctx.log, event, resolveLinks, false, form)))) return;
  }
}
