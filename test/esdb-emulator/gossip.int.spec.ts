/**
 * Gossip on a single node (gossip.rpc.ts): a real node answers `Gossip.Read` whether or not it is in a cluster
 * (`ClusterVNodeStartup` maps `ClientGossip`; `GossipOnSingleNode` defaults on, `ClusterVNode.cs`, v24.10.5), so a
 * client given `esdb+discover://` finds a single node by its gossip.
 */
import { EventStoreDBClient } from '@eventstore/db-client';
import { connectedEmulator, event, readStream, streamName } from './fidelity-helpers';
import { GossipClient, gossipPb, grpc, sharedPb, type GossipPb } from './proto';

describe('gossip on a single node', () => {
  const esdb = connectedEmulator();

  it('lets a client discover it with esdb+discover:// and write through it', async () => {
    const client = EventStoreDBClient.connectionString(`esdb+discover://127.0.0.1:${esdb.emulator.port}?tls=false`);
    try {
      const stream = streamName();
      await client.appendToStream(stream, event());
      expect(await readStream(client, stream)).toHaveLength(1);
    } finally {
      await client.dispose();
    }
  });

  it('names itself, alive and leader, its instance id in the structured form', async () => {
    const client = new GossipClient(`127.0.0.1:${esdb.emulator.port}`, grpc.credentials.createInsecure());
    const info = await new Promise<GossipPb.ClusterInfo>((resolve, reject) =>
      client.read(new sharedPb.Empty(), (error: Error | null, answer: GossipPb.ClusterInfo) => (error ? reject(error) : resolve(answer))),
    );
    client.close();
    const [member, ...others] = info.getMembersList();
    expect(others).toEqual([]);
    expect(member.getState()).toBe(gossipPb.MemberInfo.VNodeState.LEADER);
    expect(member.getIsAlive()).toBe(true);
    expect([member.getHttpEndPoint()!.getAddress(), member.getHttpEndPoint()!.getPort()]).toEqual(['127.0.0.1', esdb.emulator.port]);
    expect(member.getInstanceId()!.hasStructured()).toBe(true);
  });
});
