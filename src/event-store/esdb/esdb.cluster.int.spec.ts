/**
 * The adapter on a three-node cluster (test/esdb-emulator/cluster.ts): it finds the leader through
 * gossip from `esdb://a,b,c` or `esdb+discover://a`, follows it through two leader changes while 32
 * appenders write, and every acknowledged append is in its stream exactly once, in order.
 */
import { startEsdbCluster, type EsdbCluster } from '../../../test/esdb-emulator/cluster';
import { testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import type { ExpectedRevision } from '../event-store.port';
import { EsdbEventStore } from './esdb.event-store';
import { until } from '../../../test/esdb-emulator/fidelity-helpers';

const APPENDERS = 32;
const APPENDS_EACH = 12;

describe.each<[string, (cluster: EsdbCluster) => string]>([
  ['esdb://a,b,c', (cluster) => cluster.connectionString],
  ['esdb+discover://a', (cluster) => cluster.discoverConnectionString],
])('EsdbEventStore on a three-node cluster reached with %s', (_how, connectionString) => {
  let cluster: EsdbCluster;
  let store: EsdbEventStore;

  beforeAll(async () => {
    cluster = await startEsdbCluster();
    store = EsdbEventStore.connect(connectionString(cluster));
  });

  afterAll(async () => {
    await store.close();
    await cluster.close();
  });

  it('survives two leader changes during 32 concurrent appenders, every acknowledged append present once', async () => {
    const category = uniqueCategory();
    const acknowledged = new Map<string, string[]>();
    let acks = 0;
    const appender = async (n: number) => {
      const stream = `${category}-${n}`;
      const ids: string[] = [];
      acknowledged.set(stream, ids);
      for (let i = 0; i < APPENDS_EACH; i++) {
        const event = testEvent('Appended', { n, i });
        // Half the appenders chain exact revisions, half append with any.
        const expected: ExpectedRevision = n % 2 === 0 ? (i === 0 ? 'no_stream' : i - 1) : 'any';
        await store.append(stream, [event], expected);
        ids.push(event.id);
        acks++;
      }
    };
    const served = () => cluster.nodes.map((node) => node.stats.batchAppendRequests);
    const writing = Promise.all(Array.from({ length: APPENDERS }, (_, n) => appender(n)));
    const total = APPENDERS * APPENDS_EACH;
    await until(() => acks >= total / 3);
    cluster.elect(1);
    await until(() => acks >= (2 * total) / 3);
    const beforeSecondChange = served();
    cluster.elect(2);
    await writing;

    // Each former leader refused leader-only writes, and the appends that came after the second change
    // went to the new leader instead of being forwarded by a follower.
    expect(cluster.nodes[0].stats.notHandled).toBeGreaterThan(0);
    expect(cluster.nodes[1].stats.notHandled).toBeGreaterThan(0);
    expect(served()[2]).toBeGreaterThan(beforeSecondChange[2]);
    expect(served()[1] - beforeSecondChange[1]).toBeLessThanOrEqual(APPENDERS);
    for (const [stream, ids] of acknowledged) expect((await store.readStream(stream)).map((e) => e.id)).toEqual(ids);
    expect(acks).toBe(total);
  });
});
