/**
 * A three-node emulated cluster: one log (one writer), one leader, followers that refuse
 * leader-only requests with the leader's endpoint (node-state.ts), gossip on every node
 * (gossip.rpc.ts), and a leader change on demand.
 *
 *   const cluster = await startEsdbCluster();
 *   EsdbEventStore.connect(cluster.connectionString);      // esdb://a,b,c
 *   cluster.elect(1);                                       // node 1 leads from now on
 */
import { newSharedLog, startEsdbEmulator, type EsdbEmulator, type EsdbEmulatorOptions } from '.';

export interface EsdbCluster {
  readonly nodes: EsdbEmulator[];
  /** `esdb://127.0.0.1:a,127.0.0.1:b,127.0.0.1:c?tls=false`: gossip seeds. */
  readonly connectionString: string;
  /** `esdb+discover://127.0.0.1:a?tls=false`: one seed, the rest by gossip. */
  readonly discoverConnectionString: string;
  readonly leader: number;
  /** Makes node `index` the leader; the others follow it. */
  elect(index: number): void;
  close(): Promise<void>;
}

export async function startEsdbCluster(options: EsdbEmulatorOptions = {}, size = 3): Promise<EsdbCluster> {
  const shared = newSharedLog(options);
  let leader = 0;
  const nodes: EsdbEmulator[] = [];
  const gossip = () => nodes.map((node, i) => ({ port: node.port, leader: i === leader }));
  for (let i = 0; i < size; i++) nodes.push(await startEsdbEmulator(options, { shared, gossip }));
  const hosts = nodes.map((node) => `127.0.0.1:${node.port}`);
  const cluster: EsdbCluster = {
    nodes,
    connectionString: `esdb://${hosts.join(',')}?tls=false`,
    discoverConnectionString: `esdb+discover://${hosts[0]}?tls=false`,
    get leader() {
      return leader;
    },
    elect(index) {
      leader = index;
      nodes.forEach((node, i) =>
        node.setNodeState(i === index ? { kind: 'leader' } : { kind: 'follower', leader: { host: '127.0.0.1', port: nodes[index].port } }),
      );
    },
    async close() {
      await Promise.all(nodes.map((node) => node.close()));
    },
  };
  cluster.elect(0);
  return cluster;
}
