/**
 * `Streams.Delete` (soft: `$tb = long.MaxValue` in the metastream) and `Streams.Tombstone` (hard:
 * `$streamDeleted` at revision long.MaxValue), esdb.md §3.6. Unlike appends, a version mismatch here is a
 * real gRPC error with `wrong-expected-version` trailers carrying numeric codes (§1.3c).
 */
import type { ServerUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import type { EmulatorContext } from './context';
import { randomUUID } from 'node:crypto';
import { checkCommit } from './check-commit';
import { notHandled, requiresLeader } from './node-state';
import { expectedFromWire } from './expected-revision';
import { streamsPb, type StreamsPb } from './proto';
import { rpcErrors, type RpcError } from './rpc-errors';
import { streamNameOf } from './wire';

type Options = StreamsPb.DeleteReq.Options | StreamsPb.TombstoneReq.Options;

export function deleteRpc(ctx: EmulatorContext) {
  return (call: ServerUnaryCall<StreamsPb.DeleteReq, StreamsPb.DeleteResp>, callback: sendUnaryData<StreamsPb.DeleteResp>) => {
    const checked = check(ctx, call, false);
    if ('code' in checked) return callback(checked);
    const event = ctx.log.softDelete(checked.stream);
    const position = new streamsPb.DeleteResp.Position().setCommitPosition(`${event.position}`).setPreparePosition(`${event.position}`);
    callback(null, new streamsPb.DeleteResp().setPosition(position));
  };
}

export function tombstoneRpc(ctx: EmulatorContext) {
  return (call: ServerUnaryCall<StreamsPb.TombstoneReq, StreamsPb.TombstoneResp>, callback: sendUnaryData<StreamsPb.TombstoneResp>) => {
    const checked = check(ctx, call, true);
    if ('code' in checked) return callback(checked);
    const event = ctx.log.tombstone(checked.stream);
    const position = new streamsPb.TombstoneResp.Position().setCommitPosition(`${event.position}`).setPreparePosition(`${event.position}`);
    callback(null, new streamsPb.TombstoneResp().setPosition(position));
  };
}

/**
 * `StorageWriterService.WriteDelete`: the same `CheckCommit` as an append, with one fresh event id (so
 * `any` always holds, `no_stream` holds on a soft-deleted stream, `stream_exists` on a soft-deleted
 * stream is StreamDeleted); then a soft delete of a stream with neither events nor metadata is
 * WrongExpectedVersion even with `any`.
 */
function check(
  ctx: EmulatorContext,
  call: ServerUnaryCall<{ getOptions(): Options | undefined }, unknown>,
  hard: boolean,
): { stream: string } | RpcError {
  const denied = notHandled(ctx, requiresLeader(call.metadata));
  if (denied) return denied;
  const options = call.request.getOptions();
  const expected = options && expectedFromWire(options.getExpectedStreamRevisionCase(), options.getRevision());
  if (!options || expected === undefined) return rpcErrors.invalidArgument('Expected stream revision is missing');
  const stream = streamNameOf(options.getStreamIdentifier());
  const decision = checkCommit(ctx.log, ctx.cache, stream, expected, [randomUUID()]);
  if (decision.kind === 'stream-deleted') return rpcErrors.streamDeleted(stream);
  if (decision.kind === 'wrong-expected-version') return rpcErrors.wrongExpectedVersion(stream, expected, decision.current);
  if (!hard && ctx.log.lastRevision(stream) < 0n && ctx.log.lastRevision(`$$${stream}`) < 0n)
    return rpcErrors.wrongExpectedVersion(stream, expected, -1n);
  return { stream };
}
