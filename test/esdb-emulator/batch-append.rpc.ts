/**
 * `Streams.BatchAppend`: one long-lived bidi call per client carrying every concurrent append
 * (`Grpc/Streams.BatchAppend.cs`, kurrent-io/KurrentDB v24.10.5). Requests accumulate by correlation id until `is_final`; each gets exactly one answer
 * echoing that id with `stream_identifier` always set; errors are in-band `google.rpc.Status` values
 * (`Grpc/Status.cs`). The call ends only after the client half-closes and every answer is out: ending it earlier
 * would leave the client's promises pending forever.
 */
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { appendToLog, type AppendRequest } from './append-to-log';
import { accessDenied, failure, refused, success, timeout } from './batch-append-answers';
import { callerOf } from './credentials';
import type { DropKind, EmulatorContext } from './context';
import { expectedFromWire, proposedFromWire } from './expected-revision';
import { checkBatchChunk } from './proposed-events';
import { sharedPb, streamsPb, type SharedPb, type StreamsPb } from './proto';
import { leaderInfo, notHandledInBand, requiresLeader, type NodeState } from './node-state';
import { rpcErrors, type RpcError } from './rpc-errors';
import { inBandStatus, streamIdentifier, streamNameOf, uuidOf } from './wire';

type Call = ServerDuplexStream<StreamsPb.BatchAppendReq, StreamsPb.BatchAppendResp>;

interface Accumulating {
  correlationId: SharedPb.UUID;
  options: StreamsPb.BatchAppendReq.Options;
  events: AppendRequest['events'];
  /** Size of the events received so far (`ClientWriteRequest.Size`). */
  total: number;
  timer: NodeJS.Timeout;
}

export function batchAppendRpc(ctx: EmulatorContext) {
  return (call: Call) => {
    ctx.stats.batchAppendCalls++;
    const accumulating = new Map<string, Accumulating>();
    let answering = 0;
    let clientDone = false;
    let finished = false;
    // Cut by `stop()` or cancelled by the client: its writes still queued are skipped (append-to-log.ts).
    let cut = false;
    const ended = () => cut;
    const finish = (kind: DropKind) => {
      if (finished) return;
      finished = true;
      cut = kind !== 'ok';
      ctx.batchCalls.delete(droppable);
      if (kind === 'ok') call.end();
      else call.emit('error', kind === 'unavailable' ? rpcErrors.notReady() : rpcErrors.cancelled());
    };
    const fail = (error: RpcError) => {
      if (finished) return;
      finished = true;
      ctx.batchCalls.delete(droppable);
      call.emit('error', error);
    };
    const leaderOnly = requiresLeader(call.metadata);
    // An anonymous caller of a secure node reaches the call (credentials.ts); each request is refused in-band.
    const anonymous = callerOf(call.metadata, ctx.secure) === 'anonymous';
    const droppable = { drop: finish };
    ctx.batchCalls.add(droppable);

    const reply = (response: StreamsPb.BatchAppendResp) => void (finished || call.write(response));
    // `Receive`: the options start a request (the caller's access checked first, then the deadline, its timer
    // running until `is_final`); each chunk is checked as it arrives; a refused request is forgotten, so its later
    // chunks and `is_final` are ignored.
    call.on('data', (request: StreamsPb.BatchAppendReq) => {
      const key = uuidOf(request.getCorrelationId()) ?? '';
      const correlationId = request.getCorrelationId()!;
      const options = request.getOptions();
      if (options && anonymous) return reply(responseTo(correlationId, options).setError(accessDenied()));
      if (options && !accumulating.has(key)) {
        const timeoutMs = Math.min(deadlineOf(options) - Date.now(), ctx.settings.writeTimeoutMs);
        if (timeoutMs <= 0) return reply(responseTo(correlationId, options).setError(timeout()));
        const onTimeout = () => accumulating.delete(key) && reply(responseTo(correlationId, options).setError(timeout()));
        accumulating.set(key, { correlationId, options, events: [], total: 0, timer: setTimeout(onTimeout, timeoutMs) });
      }
      const entry = accumulating.get(key);
      if (!entry) return;
      const events = request.getProposedMessagesList().map(proposedFromWire);
      const checked = checkBatchChunk(events, entry.total, ctx.settings);
      entry.total = checked.total;
      entry.events.push(...events);
      if (checked.refusal) {
        forget(key);
        return reply(responseTo(correlationId, entry.options).setError(refused(ctx, checked.refusal)));
      }
      if (!request.getIsFinal()) return;
      forget(key);
      ctx.stats.batchAppendRequests++;
      answering++;
      ctx.stats.maxPendingOnOneBatchCall = Math.max(ctx.stats.maxPendingOnOneBatchCall, answering);
      void answer(ctx, entry, leaderOnly, ended).then((response) => {
        answering--;
        if (response === 'ended') return;
        if (response === 'not-leader') return fail(leaderInfo((ctx.nodeState as Extract<NodeState, { kind: 'follower' }>).leader));
        reply(response);
        if (clientDone && answering === 0) finish('ok');
      });
    });
    const forget = (key: string) => {
      clearTimeout(accumulating.get(key)?.timer);
      accumulating.delete(key);
    };
    call.on('end', () => {
      clientDone = true;
      if (answering === 0) finish('ok');
    });
    call.on('cancelled', () => {
      finished = true;
      cut = true;
      ctx.batchCalls.delete(droppable);
    });
  };
}

function deadlineOf(options: StreamsPb.BatchAppendReq.Options): number {
  return options.getDeadline()?.toDate().getTime() ?? Infinity;
}

function responseTo(correlationId: SharedPb.UUID, options: StreamsPb.BatchAppendReq.Options): StreamsPb.BatchAppendResp {
  return new streamsPb.BatchAppendResp()
    .setCorrelationId(correlationId)
    .setStreamIdentifier(streamIdentifier(streamNameOf(options.getStreamIdentifier())));
}

async function answer(
  ctx: EmulatorContext,
  entry: Accumulating,
  leaderOnly: boolean,
  ended: () => boolean,
): Promise<StreamsPb.BatchAppendResp | 'not-leader' | 'ended'> {
  const { options } = entry;
  const stream = streamNameOf(options.getStreamIdentifier());
  const response = responseTo(entry.correlationId, options);
  const state = ctx.nodeState;
  if (state.kind === 'not-ready' || state.kind === 'too-busy') return response.setError(notHandledInBand(ctx));
  if (state.kind === 'follower' && leaderOnly) {
    ctx.stats.notHandled++;
    return 'not-leader';
  }
  const expected = expectedFromWire(options.getExpectedStreamPositionCase(), options.getStreamPosition());
  if (expected === undefined) {
    return response.setError(
      inBandStatus(3, 'BadRequest', 'BadRequest', new sharedPb.BadRequest().setMessage('Expected stream position is missing')),
    );
  }
  // From `is_final` on the client's deadline no longer counts: `ClientWriteRequest`'s timer only answers a request
  // still in `pendingWrites`, which `is_final` left; the `WriteEvents` manager's `WriteTimeoutMs` does
  // (`Streams.BatchAppend.cs`, `Receive` and `FromOptions`; append-to-log.ts).
  const outcome = await appendToLog(ctx, { stream, expected, events: entry.events }, ended);
  // A write skipped with its ended call: there is no call left to answer on.
  if (outcome.kind === 'dropped') return 'ended';
  return outcome.kind === 'success' ? response.setSuccess(success(outcome)) : response.setError(failure(ctx, stream, expected, outcome));
}
