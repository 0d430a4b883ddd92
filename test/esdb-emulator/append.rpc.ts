/**
 * `Streams.Append` (client streaming): options first, then one proposed message per event, one answer.
 * A version mismatch is answered in-band with status OK (`Grpc/Streams.Append.cs`, `HandleWriteEventsCompleted`,
 * kurrent-io/KurrentDB v24.10.5); other refusals are gRPC errors with the trailers the client expects (`RpcExceptions.cs`).
 */
import type { ServerReadableStream, sendUnaryData } from '@grpc/grpc-js';
import { appendToLog, type AppendRequest } from './append-to-log';
import { writeCallOf } from './call-token';
import type { EmulatorContext } from './context';
import { ANY, NO_STREAM, STREAM_EXISTS } from './event-log';
import { expectedFromWire, proposedFromWire } from './expected-revision';
import { sharedPb, streamsPb, type StreamsPb } from './proto';
import { notHandled, requiresLeader } from './node-state';
import { checkForAppend, type ProposalRefusal } from './proposed-events';
import { rpcErrors } from './rpc-errors';
import { streamNameOf } from './wire';

export function appendRpc(ctx: EmulatorContext) {
  return (call: ServerReadableStream<StreamsPb.AppendReq, StreamsPb.AppendResp>, callback: sendUnaryData<StreamsPb.AppendResp>) => {
    ctx.stats.appendCalls++;
    let options: StreamsPb.AppendReq.Options | undefined;
    const events: AppendRequest['events'] = [];
    call.on('data', (request: StreamsPb.AppendReq) => {
      if (request.hasOptions()) options = request.getOptions();
      else if (request.hasProposedMessage()) events.push(proposedFromWire(request.getProposedMessage()!));
    });
    const { reply, cut } = writeCallOf(ctx, call, callback);
    call.on('end', () => {
      answer(ctx, options, events, requiresLeader(call.metadata), cut).then(
        (response) => reply(null, response),
        (error: Parameters<typeof callback>[0]) => reply(error),
      );
    });
  };
}

async function answer(
  ctx: EmulatorContext,
  options: StreamsPb.AppendReq.Options | undefined,
  events: AppendRequest['events'],
  leaderOnly: boolean,
  ended: () => boolean,
) {
  if (!options) throw rpcErrors.invalidArgument('The first AppendReq must carry options');
  const expected = expectedFromWire(options.getExpectedStreamRevisionCase(), options.getRevision());
  if (expected === undefined) throw rpcErrors.invalidArgument('Expected stream revision is missing');
  const stream = streamNameOf(options.getStreamIdentifier());
  const refusal = checkForAppend(events, ctx.settings);
  if (refusal) throw refusalError(ctx, refusal);
  const denied = notHandled(ctx, leaderOnly);
  if (denied) throw denied;
  const outcome = await appendToLog(ctx, { stream, expected, events }, ended);
  switch (outcome.kind) {
    case 'success': {
      const success = new streamsPb.AppendResp.Success();
      if (outcome.revision < 0n) success.setNoStream(new sharedPb.Empty());
      else success.setCurrentRevision(outcome.revision.toString());
      if (outcome.position === undefined) success.setNoPosition(new sharedPb.Empty());
      else
        success.setPosition(
          new streamsPb.AppendResp.Position().setCommitPosition(`${outcome.position}`).setPreparePosition(`${outcome.position}`),
        );
      return new streamsPb.AppendResp().setSuccess(success);
    }
    case 'wrong-expected-version':
      return new streamsPb.AppendResp().setWrongExpectedVersion(wrongExpectedVersion(expected, outcome.current));
    case 'stream-deleted':
      throw rpcErrors.streamDeleted(stream);
    case 'timeout':
      throw rpcErrors.writeTimeout();
    case 'dropped':
      throw rpcErrors.connectionLost();
  }
}

function refusalError(ctx: EmulatorContext, refusal: ProposalRefusal) {
  switch (refusal.kind) {
    case 'missing-required-metadata':
      return rpcErrors.missingRequiredMetadata(refusal.property);
    case 'maximum-append-event-size-exceeded':
      return rpcErrors.maximumAppendEventSizeExceeded(refusal.eventId, refusal.size, ctx.settings.maxAppendEventSize);
    case 'maximum-append-size-exceeded':
      return rpcErrors.maximumAppendSizeExceeded(ctx.settings.maxAppendSize);
    case 'invalid-event':
      return rpcErrors.handlerException();
  }
}

/** Only the current fields (6–11): the 6.x client never reads the `_20_6_0` legacy ones. */
function wrongExpectedVersion(expected: bigint, current: bigint): StreamsPb.AppendResp.WrongExpectedVersion {
  const wev = new streamsPb.AppendResp.WrongExpectedVersion();
  if (current < 0n) wev.setCurrentNoStream(new sharedPb.Empty());
  else wev.setCurrentRevision(current.toString());
  if (expected === ANY) wev.setExpectedAny(new sharedPb.Empty());
  else if (expected === STREAM_EXISTS) wev.setExpectedStreamExists(new sharedPb.Empty());
  else if (expected === NO_STREAM) wev.setExpectedNoStream(new sharedPb.Empty());
  else wev.setExpectedRevision(expected.toString());
  return wev;
}
