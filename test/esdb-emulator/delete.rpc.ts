/**
 * `Streams.Delete` (soft: `$tb = long.MaxValue` in the metastream) and `Streams.Tombstone` (hard:
 * `$streamDeleted` at revision long.MaxValue), esdb.md §3.6. Unlike appends, a version mismatch here is a
 * real gRPC error with `wrong-expected-version` trailers carrying numeric codes (§1.3c).
 */
import type { ServerUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import type { EmulatorContext } from './context';
import { ANY, LONG_MAX, NO_STREAM, STREAM_EXISTS, type EventLog } from './event-log';
import { expectedFromWire } from './expected-revision';
import { streamsPb, type StreamsPb } from './proto';
import { rpcErrors, type RpcError } from './rpc-errors';
import { streamNameOf } from './wire';

type Options = StreamsPb.DeleteReq.Options | StreamsPb.TombstoneReq.Options;

export function deleteRpc(ctx: EmulatorContext) {
  return (call: ServerUnaryCall<StreamsPb.DeleteReq, StreamsPb.DeleteResp>, callback: sendUnaryData<StreamsPb.DeleteResp>) => {
    const checked = check(ctx.log, call.request.getOptions(), false);
    if ('code' in checked) return callback(checked);
    const event = ctx.log.softDelete(checked.stream);
    const position = new streamsPb.DeleteResp.Position().setCommitPosition(`${event.position}`).setPreparePosition(`${event.position}`);
    callback(null, new streamsPb.DeleteResp().setPosition(position));
  };
}

export function tombstoneRpc(ctx: EmulatorContext) {
  return (call: ServerUnaryCall<StreamsPb.TombstoneReq, StreamsPb.TombstoneResp>, callback: sendUnaryData<StreamsPb.TombstoneResp>) => {
    const checked = check(ctx.log, call.request.getOptions(), true);
    if ('code' in checked) return callback(checked);
    const event = ctx.log.tombstone(checked.stream);
    const position = new streamsPb.TombstoneResp.Position().setCommitPosition(`${event.position}`).setPreparePosition(`${event.position}`);
    callback(null, new streamsPb.TombstoneResp().setPosition(position));
  };
}

function check(log: EventLog, options: Options | undefined, hard: boolean): { stream: string } | RpcError {
  const expected = options && expectedFromWire(options.getExpectedStreamRevisionCase(), options.getRevision());
  if (!options || expected === undefined) return rpcErrors.invalidArgument('Expected stream revision is missing');
  const stream = streamNameOf(options.getStreamIdentifier());
  const current = log.lastRevision(stream);
  if (current === LONG_MAX) return rpcErrors.streamDeleted(stream);
  // Soft-deleting a stream with neither events nor metadata fails even with `any` (esdb.md §1.3c).
  if (!hard && !log.known(stream)) return rpcErrors.wrongExpectedVersion(stream, expected, -1n);
  const holds =
    expected === ANY ||
    (expected === NO_STREAM && current === -1n) ||
    (expected === STREAM_EXISTS && current >= 0n && !log.isSoftDeleted(stream)) ||
    expected === current;
  return holds ? { stream } : rpcErrors.wrongExpectedVersion(stream, expected, current);
}
