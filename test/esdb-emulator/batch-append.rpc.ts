/**
 * `Streams.BatchAppend`: one long-lived bidi call per client carrying every concurrent append
 * (esdb.md §3.2). Requests accumulate by correlation id until `is_final`; each gets exactly one answer
 * echoing that id with `stream_identifier` always set; errors are in-band `google.rpc.Status` values
 * (§1.3b). The call ends only after the client half-closes and every answer is out: ending it earlier
 * would leave the client's promises pending forever.
 */
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { appendToLog, type AppendOutcome, type AppendRequest } from './append-to-log';
import type { DropKind, EmulatorContext } from './context';
import { ANY, NO_STREAM, STREAM_EXISTS } from './event-log';
import { expectedFromWire, proposedFromWire } from './expected-revision';
import { emptyPb, sharedPb, streamsPb, type SharedPb, type StreamsPb } from './proto';
import { rpcErrors } from './rpc-errors';
import { inBandStatus, streamIdentifier, streamNameOf, uuidOf } from './wire';

type Call = ServerDuplexStream<StreamsPb.BatchAppendReq, StreamsPb.BatchAppendResp>;

interface Accumulating {
  correlationId: SharedPb.UUID;
  options?: StreamsPb.BatchAppendReq.Options;
  events: AppendRequest['events'];
}

export function batchAppendRpc(ctx: EmulatorContext) {
  return (call: Call) => {
    ctx.stats.batchAppendCalls++;
    const accumulating = new Map<string, Accumulating>();
    let answering = 0;
    let clientDone = false;
    let finished = false;
    const finish = (kind: DropKind) => {
      if (finished) return;
      finished = true;
      ctx.batchCalls.delete(droppable);
      if (kind === 'ok') call.end();
      else call.emit('error', kind === 'unavailable' ? rpcErrors.notReady() : rpcErrors.cancelled());
    };
    const droppable = { drop: finish };
    ctx.batchCalls.add(droppable);

    call.on('data', (request: StreamsPb.BatchAppendReq) => {
      const key = uuidOf(request.getCorrelationId()) ?? '';
      const entry = accumulating.get(key) ?? { correlationId: request.getCorrelationId()!, events: [] };
      if (request.hasOptions()) entry.options = request.getOptions();
      entry.events.push(...request.getProposedMessagesList().map(proposedFromWire));
      if (!request.getIsFinal()) return void accumulating.set(key, entry);
      accumulating.delete(key);
      ctx.stats.batchAppendRequests++;
      answering++;
      ctx.stats.maxPendingOnOneBatchCall = Math.max(ctx.stats.maxPendingOnOneBatchCall, answering);
      void answer(ctx, entry).then((response) => {
        answering--;
        if (!finished) call.write(response);
        if (clientDone && answering === 0) finish('ok');
      });
    });
    call.on('end', () => {
      clientDone = true;
      if (answering === 0) finish('ok');
    });
    call.on('cancelled', () => {
      finished = true;
      ctx.batchCalls.delete(droppable);
    });
  };
}

async function answer(ctx: EmulatorContext, entry: Accumulating): Promise<StreamsPb.BatchAppendResp> {
  const options = entry.options;
  const stream = streamNameOf(options?.getStreamIdentifier());
  const response = new streamsPb.BatchAppendResp().setCorrelationId(entry.correlationId).setStreamIdentifier(streamIdentifier(stream));
  const expected = options && expectedFromWire(options.getExpectedStreamPositionCase(), options.getStreamPosition());
  if (expected === undefined) {
    return response.setError(inBandStatus(3, 'BadRequest', 'BadRequest', new sharedPb.BadRequest().setMessage('Expected stream position is missing')));
  }
  const deadline = options!.getDeadline()?.toDate().getTime();
  const outcome = await appendToLog(ctx, { stream, expected, events: entry.events, budgetMs: deadline === undefined ? undefined : deadline - Date.now() });
  return outcome.kind === 'success' ? response.setSuccess(success(outcome)) : response.setError(failure(ctx, stream, expected, outcome));
}

function success(outcome: Extract<AppendOutcome, { kind: 'success' }>): StreamsPb.BatchAppendResp.Success {
  const result = new streamsPb.BatchAppendResp.Success();
  if (outcome.revision < 0n) result.setNoStream(new emptyPb.Empty());
  else result.setCurrentRevision(outcome.revision.toString());
  if (outcome.position === undefined) result.setNoPosition(new emptyPb.Empty());
  else result.setPosition(new sharedPb.AllStreamPosition().setCommitPosition(`${outcome.position}`).setPreparePosition(`${outcome.position}`));
  return result;
}

function failure(ctx: EmulatorContext, stream: string, expected: bigint, outcome: Exclude<AppendOutcome, { kind: 'success' }>) {
  switch (outcome.kind) {
    case 'wrong-expected-version':
      return inBandStatus(6, 'WrongExpectedVersion', 'WrongExpectedVersion', wrongExpectedVersion(expected, outcome.current));
    case 'stream-deleted':
      return inBandStatus(5, 'StreamDeleted', 'StreamDeleted', new sharedPb.StreamDeleted().setStreamIdentifier(streamIdentifier(stream)));
    case 'maximum-append-size-exceeded':
      return inBandStatus(3, 'MaximumAppendSizeExceeded', 'MaximumAppendSizeExceeded', new sharedPb.MaximumAppendSizeExceeded().setMaxappendsize(ctx.settings.maxAppendSize));
    case 'missing-required-metadata':
      return inBandStatus(3, 'BadRequest', 'BadRequest', new sharedPb.BadRequest().setMessage('Required metadata properties missing: type, content-type'));
    case 'timeout':
      return inBandStatus(4, 'Timeout', 'Timeout', new sharedPb.Timeout());
  }
}

/** `shared.proto` WrongExpectedVersion: the expected case mirrors the request (esdb.md §1.3b). */
function wrongExpectedVersion(expected: bigint, current: bigint): SharedPb.WrongExpectedVersion {
  const wev = new sharedPb.WrongExpectedVersion();
  if (current < 0n) wev.setCurrentNoStream(new emptyPb.Empty());
  else wev.setCurrentStreamRevision(current.toString());
  if (expected === ANY) wev.setExpectedAny(new emptyPb.Empty());
  else if (expected === NO_STREAM) wev.setExpectedNoStream(new emptyPb.Empty());
  else if (expected === STREAM_EXISTS) wev.setExpectedStreamExists(new emptyPb.Empty());
  else wev.setExpectedStreamPosition(expected.toString());
  return wev;
}
