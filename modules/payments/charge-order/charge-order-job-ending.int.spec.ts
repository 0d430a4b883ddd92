/**
 * A charge job ends only when the order's outcome is recorded. Here the outcome append fails with
 * something other than a conflict (a store wrapper drops the connection for that one append), so
 * the stream is left with an attempt and no outcome — while the money did move at the provider.
 * The queue's retries must keep the job alive until one of them records it.
 */
import { randomUUID } from 'node:crypto';
import { Logger, runOnce } from 'graphile-worker';
import { startBackground } from '../../../src/bootstrap/background';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { WrongExpectedVersion } from '../../../src/event-store/errors';
import { installJobQueue } from '../../../src/jobs/install-job-queue';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { waitFor } from '../../../test/projections/projection-harness';
import { isSucceededCharge } from '../../sandbox';
import { loadOrder } from '../load-order';
import { orderStream } from '../order.events';
import { reconcileOrder } from '../recover-stuck-charges/reconcile-order';
import { chargeOrder, runChargeOrderJob, type ChargeOrderDeps } from './charge-order.job';
import { WebhookDeliveries } from '../receive-webhook/webhook-deliveries';

const LEASE_MS = 60_000;
let harness: TestApp;

beforeAll(async () => {
  harness = await startTestApp('charge_job_ending', { IDEM_JOB_POLL_INTERVAL: '100ms' });
  harness.sandbox.createCustomer({ id: 'c1' });
  await installJobQueue(harness.runtime.pool);
});
afterAll(() => harness.close());

/** The real store, except that the next append of `type` fails as a dropped connection would. */
function failingOnce(inner: EventStore, type: string): EventStore {
  let failed = false;
  return {
    append: async (...args) => {
      if (!failed && args[1].some((e) => e.type === type)) {
        failed = true;
        throw new Error('Connection terminated unexpectedly');
      }
      return inner.append(...args);
    },
    readStream: (...args) => inner.readStream(...args),
    readAll: (...args) => inner.readAll(...args),
    subscribeToAll: (...args) => inner.subscribeToAll(...args),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
}

/** The real store, except that every append of `type` loses to another writer (a conflict). */
function alwaysOutrun(inner: EventStore, type: string): EventStore {
  return {
    ...failingOnce(inner, type),
    append: async (...args) => {
      if (args[1].some((e) => e.type === type)) throw new WrongExpectedVersion(args[0], args[2], 99);
      return inner.append(...args);
    },
  };
}

async function requested(): Promise<string> {
  const orderId = `o-${randomUUID()}`;
  const response = await harness.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge`,
    headers: auth('storefront'),
    payload: { amount: 4200, currency: 'EUR', customerId: 'c1' },
  });
  expect(response.statusCode).toBe(202);
  return orderId;
}
const jobOf = async (orderId: string) =>
  (
    await harness.runtime.pool.query<{ attempts: number; last_error: string | null; running: boolean }>(
      `SELECT attempts, last_error, locked_at IS NOT NULL AS running FROM graphile_worker._private_jobs WHERE key = $1`,
      [`charge-order:${orderId}`],
    )
  ).rows[0];
const types = async (orderId: string) => (await harness.runtime.eventStore.readStream(orderStream(orderId))).map((e) => e.type);
const quiet = new Logger(() => () => undefined);

describe('the charge-order job', () => {
  describe('when the outcome append fails with something other than a conflict', () => {
    it('fails, and keeps failing while the attempt is inside its lease, until a retry records the outcome', async () => {
      const orderId = await requested();
      let clock = Date.now();
      const deps: ChargeOrderDeps = {
        store: failingOnce(harness.runtime.eventStore, 'ChargeSucceeded'),
        gateway: harness.gateway,
        workerId: 'w1',
        outsidePayments: new WebhookDeliveries(harness.runtime.pool),
        now: () => new Date(clock),
        attemptLeaseMs: LEASE_MS,
      };
      await harness.runtime.pool.query(
        `SELECT graphile_worker.add_job('charge-order', json_build_object('orderId', $1::text), job_key => $2)`,
        [orderId, `charge-order:${orderId}`],
      );
      const taskList = {
        'charge-order': async (payload: unknown, helpers: { job: { id: string } }) =>
          void (await runChargeOrderJob(deps, (payload as { orderId: string }).orderId, `job:${helpers.job.id}`)),
      };
      /** One run of the job by graphile-worker's runner, its retry pulled forward to now (no waiting). */
      const runNow = async () => {
        await harness.runtime.pool.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [
          `charge-order:${orderId}`,
        ]);
        await runOnce({ pgPool: harness.runtime.pool, taskList: taskList as never, logger: quiet });
      };

      await runNow();
      expect(await jobOf(orderId)).toMatchObject({ attempts: 1, last_error: expect.stringContaining('Connection terminated') });
      expect(await types(orderId)).toEqual(['ChargeRequested', 'ChargeAttemptStarted']);
      expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);

      // The retry comes seconds later: the attempt is inside its lease, and no other run holds it.
      clock += 3_000;
      await runNow();
      expect(await jobOf(orderId)).toMatchObject({ attempts: 2, last_error: expect.stringContaining('still inside its lease') });
      expect(await types(orderId)).toEqual(['ChargeRequested', 'ChargeAttemptStarted']);

      // A later retry finds the lease passed, verifies with the provider and records the charge.
      clock += LEASE_MS;
      await runNow();
      expect(await jobOf(orderId)).toBeUndefined();
      // Past the lease the retry verifies by sending the same create under the same key (a recorded
      // attempt): the provider answers with the charge it already made.
      expect(await types(orderId)).toEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeAttemptStarted', 'ChargeSucceeded']);
      expect((await loadOrder(harness.runtime.eventStore, orderId)).state).toMatchObject({ status: 'paid', recovered: true });
      expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
    });

    it("is still queued after the worker process's own retry finds the attempt inside its lease", async () => {
      const runtime = { ...harness.runtime, eventStore: failingOnce(harness.runtime.eventStore, 'ChargeSucceeded') };
      const background = await startBackground(runtime, harness.features, { workerId: 'w-ending' });
      try {
        // The reactor enqueues the job; the worker runs it, the outcome append fails, graphile-worker
        // retries it about e¹ ≈ 2.7 s later (retention/retry-window.ts).
        const orderId = await requested();
        await waitFor('the first run of the charge job to fail', async () =>
          (await jobOf(orderId))?.last_error?.includes('Connection terminated'),
        );
        // graphile-worker counts an attempt when it takes the job and notes the error when the run ends.
        const afterRetry = await waitFor('the retry to end the job or fail', async () => {
          const job = await jobOf(orderId);
          return job === undefined ? { ended: true } : job.attempts >= 2 && !job.running && { ended: false, ...job };
        });
        expect(afterRetry).toMatchObject({ ended: false, attempts: 2, last_error: expect.stringContaining('still inside its lease') });
        expect(await types(orderId)).toEqual(['ChargeRequested', 'ChargeAttemptStarted']);
      } finally {
        await background.stop();
      }
    });
  });

  describe('when other writers change the order in every round of a run', () => {
    it('ends the run as contended — not as an attempt inside its lease — in the job and in recovery', async () => {
      const orderId = await requested();
      const deps: ChargeOrderDeps = {
        store: alwaysOutrun(harness.runtime.eventStore, 'ChargeAttemptStarted'),
        gateway: harness.gateway,
        workerId: 'w-contended',
        outsidePayments: new WebhookDeliveries(harness.runtime.pool),
      };

      expect(await chargeOrder(deps, orderId)).toBe('contended');
      await expect(runChargeOrderJob(deps, orderId, 'job:1')).rejects.toThrow(/changed under this run in each of its 4 rounds/);
      const recovered = await reconcileOrder({ ...deps, pool: harness.runtime.pool }, orderId, { staleAfterMs: 0, trigger: 'support' });
      expect(recovered).toMatchObject({ oldStatus: 'pending', newStatus: 'pending', reason: expect.stringContaining('kept changing') });
      expect(await types(orderId)).toEqual(['ChargeRequested']);
      expect(harness.sandbox.charges({ orderId })).toHaveLength(0);
    });
  });
});
