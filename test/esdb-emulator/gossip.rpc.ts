/**
 * `Gossip.Read`, which the client calls to find the leader when given several hosts or `esdb+discover://`
 * (client `Client/discovery.ts`). Server source (v24.10.5): `Grpc/Gossip.Read.cs` `ToGrpcClusterInfo` — every member
 * with its instance id as `Uuid.FromGuid(…).ToDto()` (the structured form), its time stamp (`ToTicksSinceEpoch`, .NET
 * ticks since the Unix epoch, `EpochExtensions.cs`), `VNodeState`, `IsAlive` and HTTP endpoint. Every node serves it,
 * a single node too: `ClusterVNodeStartup` maps `ClientGossip` always and `ClusterVNode` runs the gossip service unless
 * `GossipOnSingleNode` is switched off (default on); a single node's gossip names itself.
 */
import { randomUUID } from 'node:crypto';
import type { ServerUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import { structuredUuid } from './event-id';
import { gossipPb, type SharedPb } from './proto';

export interface GossipMember {
  port: number;
  leader: boolean;
  /** False for a stopped node: the others' gossip reports it `IsAlive = false` (`Gossip.Read.cs`, `MemberInfo.IsAlive`). */
  alive?: boolean;
}

export function gossipReadRpc(members: () => GossipMember[]) {
  const instanceIds = new Map<number, SharedPb.UUID>();
  return (_call: ServerUnaryCall<SharedPb.Empty, unknown>, callback: sendUnaryData<unknown>) => {
    const info = new gossipPb.ClusterInfo();
    for (const member of members()) {
      if (!instanceIds.has(member.port)) instanceIds.set(member.port, structuredUuid(randomUUID()));
      const state = member.leader ? gossipPb.MemberInfo.VNodeState.LEADER : gossipPb.MemberInfo.VNodeState.FOLLOWER;
      info.addMembers(
        new gossipPb.MemberInfo()
          .setInstanceId(instanceIds.get(member.port)!)
          .setTimeStamp((BigInt(Date.now()) * 10_000n).toString())
          .setState(state)
          .setIsAlive(member.alive ?? true)
          .setHttpEndPoint(new gossipPb.EndPoint().setAddress('127.0.0.1').setPort(member.port)),
      );
    }
    callback(null, info);
  };
}
