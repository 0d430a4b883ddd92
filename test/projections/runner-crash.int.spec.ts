/**
 * Exactly-once effect under crashes: a real runner process is SIGKILLed 20 times — half of them
 * inside an open batch transaction (rows written, checkpoint moved, not committed), half at a random
 * moment — while writers keep appending. Afterwards every read model equals a fold of its streams,
 * the charge reactor handled every ChargeRequested exactly once and left one charge job per order, and
 * the audit chain linked every event once.
 */
import { readModelProjection } from '../../src/subscriptions/read-models/read-model.projection';
import { verifyReadModel } from '../../src/subscriptions/read-models/verify';
import { CHARGE_ORDER_TASK } from '../../modules/payments/charge-order/charge-order.payload';
import { READ_MODELS, REACTORS } from '../harness/projection-catalogue';
import { LiveWriter } from './live-writer';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from './projection-harness';
import { RunnerChild } from './runner-child';

const KILLS = 20;
/** 21 process starts: about half a minute on two idle cores, allow for a busy machine. */
const TIMEOUT_MS = 240_000;

describe('Projection runner killed with SIGKILL while writers append', () => {
  let db: ProjectionDatabase;
  let writer: LiveWriter;
  const children: RunnerChild[] = [];
  const spawnRunner = (env: Record<string, string> = {}) => {
    const child = new RunnerChild(db.url, { WAIT_FOR_GO: '1', AUDIT_REACTOR: '1', ...env });
    children.push(child);
    return child;
  };

  beforeAll(async () => {
    db = await createProjectionDatabase('runner_crash');
    await db.pool.query('CREATE TABLE test_reactor_deliveries (event_id text NOT NULL)');
    writer = new LiveWriter(db.store, 42, { concurrency: 2, appendsPerSecond: 200 });
  });
  afterAll(async () => {
    await writer.stop();
    await Promise.all(children.map((child) => child.kill()));
    await db.close();
  });

  it(
    'ends with read models equal to a fold of the streams and every charge job enqueued exactly once',
    async () => {
      await writer.appendCount(400);
      writer.start();
      const blockedProjections = new Set<string>();
      // Odd rounds stop inside a random early batch; even rounds run freely until killed; the last
      // process (round KILLS + 1) runs to the end.
      const envFor = (round: number): Record<string, string> =>
        round <= KILLS && round % 2 === 1 ? { BLOCK_IN_BATCH: String(1 + Math.floor(Math.random() * 8)) } : {};
      let next = spawnRunner(envFor(1));
      for (let round = 1; round <= KILLS; round++) {
        const current = next;
        const inBatch = round % 2 === 1;
        await current.waitFor('loaded', (r) => r.event === 'loaded');
        current.go();
        // Warm the successor up while this one runs; it waits for "go" before touching anything.
        next = spawnRunner(envFor(round + 1));
        if (inBatch) {
          const blocked = await current.waitFor('a batch to block in', (r) => r.event === 'blocked');
          blockedProjections.add(blocked.projection as string);
        } else {
          await current.waitFor('a committed batch', (r) => r.event === 'committed');
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 100)); // a random kill point, not a synchronisation
        }
        await current.kill('SIGKILL');
      }
      await writer.stop();

      await next.waitFor('loaded', (r) => r.event === 'loaded');
      next.go();
      await waitUntilCaughtUp(db.store, db.pool, [...READ_MODELS.map(readModelProjection), ...REACTORS], 60_000);
      await next.kill('SIGTERM');

      expect(blockedProjections.size).toBeGreaterThan(1);
      for (const model of READ_MODELS) {
        const report = await verifyReadModel(db.store, db.pool, model);
        expect({ model: model.name, differences: report.differences.slice(0, 5) }).toEqual({ model: model.name, differences: [] });
      }
      const { rows } = await db.pool.query(
        `
      SELECT (SELECT count(*)::int FROM idem_events WHERE event_type = 'ChargeRequested') AS requests,
             (SELECT count(DISTINCT stream_name)::int FROM idem_events WHERE event_type = 'ChargeRequested') AS orders,
             (SELECT count(*)::int FROM test_reactor_deliveries) AS deliveries,
             (SELECT count(DISTINCT event_id)::int FROM test_reactor_deliveries) AS distinct_deliveries,
             (SELECT count(*)::int FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
               WHERE t.identifier = $1) AS jobs,
             (SELECT count(DISTINCT key)::int FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
               WHERE t.identifier = $1) AS keys,
             (SELECT count(*)::int FROM idem_events) AS events,
             (SELECT events_chained::int FROM audit_chain_head) AS chained,
             (SELECT count(*)::int FROM audit_chain) AS chain_rows`,
        [CHARGE_ORDER_TASK],
      );
      const counts = rows[0];
      expect(counts.deliveries).toBe(counts.requests);
      expect(counts.distinct_deliveries).toBe(counts.requests);
      expect(counts.jobs).toBe(counts.orders);
      expect(counts.keys).toBe(counts.orders);
      // The audit chain, killed with the others: every event linked once (its rows refuse a second link).
      expect({ chained: counts.chained, rows: counts.chain_rows }).toEqual({ chained: counts.events, rows: counts.events });
    },
    TIMEOUT_MS,
  );
});
