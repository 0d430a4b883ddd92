/**
 * A three-node emulated cluster: one log (one writer), one leader, followers that refuse
 * leader-only requests with the leader's endpoint (node-state.ts), gossip on every node
 * (gossip.rpc.ts), and a leader change on demand.
 *
 *   const cluster = await startEsdbCluster();
 *   EsdbEventStore.connect(cluster.connectionString);      // esdb://a,b,c
 *   cluster.elect(1);                                       // node 1 leads from now on
 */
import { rmSync } from 'node:fs';
import { newSharedLog, startEsdbEmulator, type EsdbEmulator, type EsdbEmulatorOptions } from '.';
import { generateTlsMaterial } from './tls';

export interface EsdbCluster {
  readonly nodes: EsdbEmulator[];
  /** `esdb://127.0.0.1:a,127.0.0.1:b,127.0.0.1:c?tls=false` (or `?tlsCAFile=…` with `tls`): gossip seeds. */
  readonly connectionString: string;
  /** `esdb+discover://127.0.0.1:a?tls=false`: one seed, the rest by gossip. */
  readonly discoverConnectionString: string;
  readonly leader: number;
  /** Makes node `index` the leader; the others follow it. */
  elect(index: number): void;
  /**
   * Stops node `index` (gossip reports it dead); if it led, the first live node is elected, as the
   * remaining majority of a real cluster elects a new leader.
   */
  kill(index: number): Promise<void>;
  /** Starts every stopped node again. */
  revive(): Promise<void>;
  close(): Promise<void>;
}

export async function startEsdbCluster(options: EsdbEmulatorOptions = {}, size = 3): Promise<EsdbCluster> {
  const shared = newSharedLog(options);
  // One CA for the whole cluster, as the client's own test setup issues every node's certificate from one.
  const generatedTls = options.tls === true;
  const tls = options.tls === true ? generateTlsMaterial() : options.tls || undefined;
  options = { ...options, tls };
  const query = tls ? `tlsCAFile=${encodeURIComponent(tls.caFile)}` : 'tls=false';
  let leader = 0;
  const nodes: EsdbEmulator[] = [];
  const dead = new Set<number>();
  const gossip = () => nodes.map((node, i) => ({ port: node.port, leader: i === leader, alive: !dead.has(i) }));
  for (let i = 0; i < size; i++) nodes.push(await startEsdbEmulator(options, { shared, gossip }));
  const hosts = nodes.map((node) => `127.0.0.1:${node.port}`);
  const cluster: EsdbCluster = {
    nodes,
    connectionString: `esdb://${hosts.join(',')}?${query}`,
    discoverConnectionString: `esdb+discover://${hosts[0]}?${query}`,
    get leader() {
      return leader;
    },
    elect(index) {
      leader = index;
      nodes.forEach((node, i) =>
        node.setNodeState(i === index ? { kind: 'leader' } : { kind: 'follower', leader: { host: '127.0.0.1', port: nodes[index].port } }),
      );
    },
    async kill(index) {
      dead.add(index);
      await nodes[index].stop();
      const live = nodes.findIndex((_, i) => !dead.has(i));
      if (index === leader && live >= 0) cluster.elect(live);
    },
    async revive() {
      for (const index of [...dead]) {
        await nodes[index].start();
        dead.delete(index);
      }
    },
    async close() {
      await Promise.all(nodes.map((node) => node.close()));
      if (generatedTls && tls) rmSync(tls.dir, { recursive: true, force: true });
    },
  };
  cluster.elect(0);
  return cluster;
}
