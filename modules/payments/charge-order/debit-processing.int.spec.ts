/**
 * A SEPA Direct Debit stays `processing` at the provider for days. The running worker (reactor, queue,
 * charge task) records that answer, lets graphile-worker back off and checks it again, however many
 * times — the stop rule is for answers that were lost, not for this one — and records the payment once
 * the bank settles it. A check is a GET of the processing intent: one charge request in all, and a
 * check that finds nothing new appends nothing. Each retry is pulled forward instead of waited for.
 */
import { randomUUID } from 'node:crypto';
import { startBackground, type Background } from '../../../src/bootstrap/background';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { waitFor } from '../../../test/projections/projection-harness';
import { isSucceededCharge } from '../../sandbox';
import { loadOrder } from '../load-order';
import { orderStream } from '../order.events';
import { MAX_CONSECUTIVE_UNKNOWN } from './charge-order.decision';
import { chargeOrderJobKey } from './charge-order.payload';

let harness: TestApp;
let background: Background;

beforeAll(async () => {
  harness = await startTestApp('debit_processing', { IDEM_PAYMENT_METHOD: 'saved_card', IDEM_JOB_POLL_INTERVAL: '100ms' });
  harness.sandbox.createCustomer({ id: 'c-sepa', paymentMethod: 'pm_successDelayed_de' });
  background = await startBackground(harness.runtime, harness.features, { workerId: 'w-debit' });
});
afterAll(async () => {
  await background?.stop();
  await harness.close();
});

interface JobRow {
  attempts: number;
  last_error: string | null;
  backing_off: boolean;
}
const jobOf = async (orderId: string) =>
  (
    await harness.runtime.pool.query<JobRow>(
      `SELECT attempts, last_error, run_at > now() AS backing_off FROM graphile_worker._private_jobs WHERE key = $1 AND locked_at IS NULL`,
      [chargeOrderJobKey(orderId)],
    )
  ).rows[0];
const exists = async (orderId: string) =>
  (await harness.runtime.pool.query(`SELECT 1 FROM graphile_worker._private_jobs WHERE key = $1`, [chargeOrderJobKey(orderId)])).rowCount;
const pullRetryForward = (orderId: string) =>
  harness.runtime.pool.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [chargeOrderJobKey(orderId)]);
const stateOf = async (orderId: string) => (await loadOrder(harness.runtime.eventStore, orderId)).state;

describe('a SEPA Direct Debit that stays processing', () => {
  it('is checked again past the stop rule without going to review, and is paid once the bank settles it', async () => {
    const orderId = `sepa-${randomUUID()}`;
    const response = await harness.app.inject({
      method: 'POST',
      url: `/v1/orders/${orderId}/charge`,
      headers: auth('storefront'),
      payload: { amount: 4200, currency: 'EUR', customerId: 'c-sepa' },
    });
    expect(response.statusCode).toBe(202);

    const checks = MAX_CONSECUTIVE_UNKNOWN + 2;
    for (let run = 1; run <= checks; run++) {
      const failed = await waitFor(`run ${run} of the charge job to end`, async () => {
        const job = await jobOf(orderId);
        return job !== undefined && job.attempts >= run && job.last_error !== null && job;
      });
      // The queue's own backoff holds the retry back; the spec does not wait for it.
      expect(failed).toMatchObject({
        attempts: run,
        backing_off: true,
        last_error: expect.stringContaining('is processing at the provider'),
      });
      expect(await stateOf(orderId)).toMatchObject({ status: 'processing', processingAtProvider: true, consecutiveUnknown: 0 });
      if (run < checks) await pullRetryForward(orderId);
    }
    const [intent] = harness.sandbox.charges({ orderId });
    expect(harness.sandbox.charges({ orderId })).toHaveLength(1);
    const creates = harness.sandbox.requests().filter((r) => r.method === 'POST' && r.orderId === orderId);
    expect(creates.map((r) => r.idempotencyKey)).toStrictEqual([`idem-order-${orderId}-r1`]);
    // Every check after the first answer looked at the intent itself.
    const looks = harness.sandbox.requests().filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intent.id}`);
    expect(looks.length).toBeGreaterThanOrEqual(checks - 1);
    // Checks that found it still processing appended nothing: one attempt, one recorded answer.
    const typesBefore = (await harness.runtime.eventStore.readStream(orderStream(orderId))).map((e) => e.type);
    expect(typesBefore).toStrictEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeOutcomeUnknown']);

    harness.sandbox.settle(intent.id, 'succeeded');
    await pullRetryForward(orderId);
    await waitFor('the charge job to end', async () => (await exists(orderId)) === 0);

    expect(await stateOf(orderId)).toMatchObject({ status: 'paid', paymentIntentId: intent.id, recovered: true });
    const types = (await harness.runtime.eventStore.readStream(orderStream(orderId))).map((e) => e.type);
    expect(types).not.toContain('ChargeNeedsReview');
    expect(types).toStrictEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeOutcomeUnknown', 'ChargeSucceeded']);
    expect(harness.sandbox.charges({ orderId })).toHaveLength(1);
    expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
  });
});
