/**
 * `Streams.Delete` (soft: `$tb = long.MaxValue` in the metastream) and `Streams.Tombstone` (hard:
 * `$streamDeleted` at revision long.MaxValue), decided by the writer in its turn (delete-from-log.ts). Unlike
 * appends, a version mismatch here is a gRPC error, `RpcExceptions.WrongExpectedVersion("Delete", …)`, with
 * `wrong-expected-version` trailers carrying numeric codes (`Services/Transport/Grpc/Streams.Delete.cs`,
 * `DeleteInternal`, v24.10.5).
 */
import type { ServerUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import { writeCallOf } from './call-token';
import type { EmulatorContext } from './context';
import { deleteFromLog, type DeleteOutcome } from './delete-from-log';
import { notHandled, requiresLeader } from './node-state';
import { expectedFromWire } from './expected-revision';
import { streamsPb, type StreamsPb } from './proto';
import { rpcErrors, type RpcError } from './rpc-errors';
import { streamNameOf } from './wire';

type Options = StreamsPb.DeleteReq.Options | StreamsPb.TombstoneReq.Options;

export function deleteRpc(ctx: EmulatorContext) {
  return (call: ServerUnaryCall<StreamsPb.DeleteReq, StreamsPb.DeleteResp>, callback: sendUnaryData<StreamsPb.DeleteResp>) => {
    const position = (at: bigint) => new streamsPb.DeleteResp.Position().setCommitPosition(`${at}`).setPreparePosition(`${at}`);
    answerOnce(ctx, call, false, callback, (at) => new streamsPb.DeleteResp().setPosition(position(at)));
  };
}

export function tombstoneRpc(ctx: EmulatorContext) {
  return (call: ServerUnaryCall<StreamsPb.TombstoneReq, StreamsPb.TombstoneResp>, callback: sendUnaryData<StreamsPb.TombstoneResp>) => {
    const position = (at: bigint) => new streamsPb.TombstoneResp.Position().setCommitPosition(`${at}`).setPreparePosition(`${at}`);
    answerOnce(ctx, call, true, callback, (at) => new streamsPb.TombstoneResp().setPosition(position(at)));
  };
}

/** Answers once: with the delete's outcome, or with the connection `stop()` cuts first (as an Append's, append.rpc.ts). */
function answerOnce<R>(
  ctx: EmulatorContext,
  call: ServerUnaryCall<{ getOptions(): Options | undefined }, R>,
  hard: boolean,
  callback: sendUnaryData<R>,
  response: (position: bigint) => R,
): void {
  const { reply, cut } = writeCallOf(ctx, call, callback);
  void answer(ctx, call, hard, cut).then((outcome) => (typeof outcome === 'bigint' ? reply(null, response(outcome)) : reply(outcome)));
}

/** The position the delete was written at, or the error the call ends with. */
async function answer(
  ctx: EmulatorContext,
  call: ServerUnaryCall<{ getOptions(): Options | undefined }, unknown>,
  hard: boolean,
  ended: () => boolean,
): Promise<bigint | RpcError> {
  const denied = notHandled(ctx, requiresLeader(call.metadata));
  if (denied) return denied;
  const options = call.request.getOptions();
  const expected = options && expectedFromWire(options.getExpectedStreamRevisionCase(), options.getRevision());
  if (!options || expected === undefined) return rpcErrors.invalidArgument('Expected stream revision is missing');
  const stream = streamNameOf(options.getStreamIdentifier());
  return errorOf(stream, expected, await deleteFromLog(ctx, { stream, expected, hard }, ended));
}

function errorOf(stream: string, expected: bigint, outcome: DeleteOutcome): bigint | RpcError {
  switch (outcome.kind) {
    case 'deleted':
      return outcome.position;
    case 'stream-deleted':
      return rpcErrors.streamDeleted(stream);
    case 'wrong-expected-version':
      return rpcErrors.wrongExpectedVersion(stream, expected, outcome.current);
    case 'timeout':
      return rpcErrors.writeTimeout();
    case 'dropped':
      // Skipped with its ended call: this answer is never heard.
      return rpcErrors.connectionLost();
  }
}
