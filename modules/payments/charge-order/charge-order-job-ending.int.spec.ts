/**
 * A charge job ends only when the order's outcome is recorded. Here the outcome append fails with
 * something other than a conflict (a store wrapper drops the connection for that one append), so
 * the stream is left with an attempt and no outcome — while the money did move at the provider.
 * The queue's retries (graphile-worker's own runner) must keep the job alive until one records it.
 */
import { randomUUID } from 'node:crypto';
import { Logger, runOnce } from 'graphile-worker';
import { Pool } from 'pg';
import { handleCommand } from '../../../src/command-handling/handle-command';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { installJobQueue } from '../../../src/jobs/install-job-queue';
import { createTestDatabase } from '../../../test/harness/test-database';
import { createSandbox, isChargeAttempt, type Sandbox } from '../../sandbox';
import { loadOrder } from '../get-order/load-order';
import { orderStream } from '../order.events';
import { StripePaymentGateway } from '../payment-gateway/stripe.payment-gateway';
import { requestChargeDecider } from '../request-charge/request-charge.decider';
import { runChargeOrderJob, type ChargeOrderDeps } from './charge-order.job';

const LEASE_MS = 60_000;
let pool: Pool;
let store: PostgresEventStore;
let sandbox: Sandbox;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('charge_job_ending'), max: 6 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  await installJobQueue(pool);
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox.close();
  await store.close();
  await pool.end();
});

/** The real store, except that the next append of `type` fails as a dropped connection would. */
function failingOnce(inner: EventStore, type: string): EventStore & { failed: number } {
  const wrapper = {
    failed: 0,
    append: async (...args: Parameters<EventStore['append']>) => {
      if (wrapper.failed === 0 && args[1].some((e) => e.type === type)) {
        wrapper.failed++;
        throw new Error('Connection terminated unexpectedly');
      }
      return inner.append(...args);
    },
    readStream: inner.readStream.bind(inner),
    readAll: inner.readAll.bind(inner),
    subscribeToAll: inner.subscribeToAll.bind(inner),
    ping: inner.ping.bind(inner),
    close: inner.close.bind(inner),
  };
  return wrapper;
}

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'storefront', tokenId: 'test' } };
const quiet = new Logger(() => () => undefined);

describe('the charge-order job', () => {
  describe('when the outcome append fails with something other than a conflict', () => {
    it('fails, and keeps failing while the attempt is inside its lease, until a retry records the outcome', async () => {
      const orderId = `o-${randomUUID()}`;
      await handleCommand(store, orderStream(orderId), requestChargeDecider, { orderId, amount: 4200, currency: 'EUR', customerId: 'cus_1', requestId: orderId }, { metadata });
      let clock = Date.now();
      const deps: ChargeOrderDeps = {
        store: failingOnce(store, 'ChargeSucceeded'),
        gateway: new StripePaymentGateway({ secretKey: 'sk_test_idem', baseUrl: sandbox.url, maxNetworkRetries: 0, timeoutMs: 2000 }),
        workerId: 'w1',
        now: () => new Date(clock),
        attemptLeaseMs: LEASE_MS,
      };
      const jobKey = `charge-order:${orderId}`;
      await pool.query(`SELECT graphile_worker.add_job('charge-order', json_build_object('orderId', $1::text), job_key => $2)`, [orderId, jobKey]);
      const taskList = { 'charge-order': async (payload: unknown, helpers: { job: { id: string } }) => void (await runChargeOrderJob(deps, (payload as { orderId: string }).orderId, `job:${helpers.job.id}`)) };
      const job = async () => (await pool.query<{ attempts: number; last_error: string | null }>(`SELECT attempts, last_error FROM graphile_worker._private_jobs WHERE key = $1`, [jobKey])).rows[0];
      /** One run of the job by graphile-worker, its retry pulled forward to now (no waiting). */
      const runNow = async () => {
        await pool.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [jobKey]);
        await runOnce({ pgPool: pool, taskList: taskList as never, logger: quiet });
      };
      const types = async () => (await store.readStream(orderStream(orderId))).map((e) => e.type);

      await runNow();
      expect(await job()).toMatchObject({ attempts: 1, last_error: expect.stringContaining('Connection terminated') });
      expect(await types()).toEqual(['ChargeRequested', 'ChargeAttemptStarted']);
      expect(sandbox.charges({ orderId }).filter(isChargeAttempt)).toHaveLength(1);

      // The retry comes seconds later: the attempt is inside its lease, and no other run holds it.
      clock += 3_000;
      await runNow();
      expect(await job()).toMatchObject({ attempts: 2, last_error: expect.stringContaining('still inside its lease') });
      expect(await types()).toEqual(['ChargeRequested', 'ChargeAttemptStarted']);

      // A later retry finds the lease passed, verifies with the provider and records the charge.
      clock += LEASE_MS;
      await runNow();
      expect(await job()).toBeUndefined();
      expect(await types()).toEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeSucceeded']);
      expect((await loadOrder(store, orderId)).state).toMatchObject({ status: 'paid', recovered: true });
      expect(sandbox.charges({ orderId }).filter(isChargeAttempt)).toHaveLength(1);
    });
  });
});
