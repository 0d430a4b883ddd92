/**
 * The node's state as requests see it: a leader serves everything; a node that is not ready or too
 * busy, or a follower asked for something only the leader does, answers `ClientMessage.NotHandled`.
 * Server source (v24.10.5, as v24.10.4): `Grpc/RpcExceptions.cs` `TryHandleNotHandled` for Append,
 * Read, Delete and Tombstone — not ready / too busy are UNAVAILABLE "Server Is Not Ready" / "Server Is
 * Too Busy", not leader is NOT_FOUND "Leader info available" with `exception: not-leader` and the
 * leader's `leader-endpoint-host` / `-port` trailers; `Grpc/Streams.BatchAppend.cs` `ConvertMessage` —
 * not ready / busy are in-band `Status{code 0, "Server Is Not Ready" | "Server Is Busy", details
 * google.protobuf.Empty}`, not leader throws `RpcExceptions.LeaderInfo` out of the callback and so fails
 * the whole call, every append in flight on it.
 */
import { anyPb, emptyPb, grpc, statusPb, type GrpcJs } from './proto';
import type { EmulatorContext } from './context';
import type { RpcError } from './rpc-errors';

export type NodeState =
  { kind: 'leader' } | { kind: 'not-ready' } | { kind: 'too-busy' } | { kind: 'follower'; leader: { host: string; port: number } };

function unavailable(details: string): RpcError {
  return { code: grpc.status.UNAVAILABLE, details, message: details, metadata: new grpc.Metadata() };
}

export function leaderInfo(leader: { host: string; port: number }): RpcError {
  const metadata = new grpc.Metadata();
  metadata.set('exception', 'not-leader');
  metadata.set('leader-endpoint-host', leader.host);
  metadata.set('leader-endpoint-port', String(leader.port));
  return { code: grpc.status.NOT_FOUND, details: 'Leader info available', message: 'Leader info available', metadata };
}

/**
 * The `requires-leader` header (`Grpc/Streams.cs` `GetRequiresLeader`): without it a follower forwards
 * writes to the leader and serves reads itself (`ClusterVNodeController.HandleAsNonLeader`).
 */
export function requiresLeader(metadata: GrpcJs.Metadata): boolean {
  return metadata.get('requires-leader')[0]?.toString() === 'true';
}

/** The error a unary call or read gets, or undefined when the node handles it; counted in `stats.notHandled`. */
export function notHandled(ctx: EmulatorContext, requiresLeader: boolean): RpcError | undefined {
  const error = notHandledError(ctx.nodeState, requiresLeader);
  if (error) ctx.stats.notHandled++;
  return error;
}

function notHandledError(state: NodeState, requiresLeader: boolean): RpcError | undefined {
  switch (state.kind) {
    case 'leader':
      return undefined;
    case 'not-ready':
      return unavailable('Server Is Not Ready');
    case 'too-busy':
      return unavailable('Server Is Too Busy');
    case 'follower':
      return requiresLeader ? leaderInfo(state.leader) : undefined;
  }
}

/** BatchAppend's in-band answer for not ready / too busy (a follower fails the call instead). */
export function notHandledInBand(ctx: EmulatorContext) {
  const state = ctx.nodeState;
  ctx.stats.notHandled++;
  const message = state.kind === 'not-ready' ? 'Server Is Not Ready' : 'Server Is Busy';
  const details = new anyPb.Any();
  details.pack(new emptyPb.Empty().serializeBinary(), 'google.protobuf.Empty');
  return new statusPb.Status().setCode(0).setMessage(message).setDetails(details);
}
