/**
 * A charge recorded before the door refused amounts below the provider's minimum (a `ChargeRequested`
 * of 1 EUR cent in `order-<id>`, as a store written by an older version holds it). The provider refuses
 * it with 400 `invalid_request_error` `amount_too_small`: it ran no charge, and no retry can make one.
 * The running worker (reactor, queue, charge task) must end the job on a terminal state that says why,
 * not retry it or record an outcome to verify, and recovery must leave it to the person it names.
 */
import { randomUUID } from 'node:crypto';
import { startBackground, type Background } from '../../../src/bootstrap/background';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { waitFor } from '../../../test/projections/projection-harness';
import { isSucceededCharge } from '../../sandbox';
import { loadOrder } from '../load-order';
import { orderCommands } from '../order.commands';
import { orderStream } from '../order.events';
import { reconcileOrder } from '../recover-stuck-charges/reconcile-order';
import { decideRequestCharge } from '../request-charge/request-charge.decision';
import { chargeOrderJobKey } from './charge-order.payload';

let harness: TestApp;
let background: Background;

beforeAll(async () => {
  harness = await startTestApp('below_minimum_charge', { IDEM_JOB_POLL_INTERVAL: '100ms' });
  harness.sandbox.createCustomer({ id: 'c-old' });
  background = await startBackground(harness.runtime, harness.features, { workerId: 'w-minimum' });
});
afterAll(async () => {
  await background?.stop();
  await harness?.close();
});

const metadata = { correlationId: 'old-version', causationId: 'old-version', actor: { role: 'storefront', tokenId: 'old' } };
const jobCount = async (orderId: string) =>
  (await harness.runtime.pool.query(`SELECT 1 FROM graphile_worker._private_jobs WHERE key = $1`, [chargeOrderJobKey(orderId)])).rowCount;
const typesOf = async (orderId: string) => (await harness.runtime.eventStore.readStream(orderStream(orderId))).map((e) => e.type);

describe('a charge of 1 EUR cent recorded before the minimum-amount check', () => {
  it('ends in review with the reason the provider gave, after one refused request, and the provider holds no succeeded intent', async () => {
    const orderId = `old-${randomUUID()}`;
    // The request decision checks no minimum (the route's validation does): what an older version appended.
    const command = { orderId, amount: 1, currency: 'EUR', customerId: 'c-old', requestId: orderId };
    await orderCommands.handle(harness.runtime.eventStore, orderId, (order) => decideRequestCharge(command, order), { metadata });

    await waitFor('the charge job to end', async () => (await typesOf(orderId)).length > 1 && (await jobCount(orderId)) === 0);

    expect(await typesOf(orderId)).toStrictEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeNeedsReview']);
    expect((await loadOrder(harness.runtime.eventStore, orderId)).state).toMatchObject({
      status: 'needs_review',
      consecutiveUnknown: 0,
      lastError: expect.stringMatching(/^provider rejected the request: amount_too_small: Amount must be at least €0.50 eur/),
    });
    const creates = harness.sandbox.requests({ orderId });
    expect(creates.map((r) => [r.method, r.path, r.status])).toStrictEqual([['POST', '/v1/payment_intents', 400]]);
    expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toStrictEqual([]);

    // Support's reconcile (and so the sweep, which takes only pending, processing and unknown orders)
    // asks the provider nothing more: the case waits for a person.
    const reconciled = await reconcileOrder(
      { store: harness.runtime.eventStore, gateway: harness.gateway, workerId: 'w-support', pool: harness.runtime.pool },
      orderId,
      { staleAfterMs: 0, trigger: 'support' },
    );
    expect(reconciled).toMatchObject({ oldStatus: 'needs_review', newStatus: 'needs_review' });
    expect(harness.sandbox.requests({ orderId })).toHaveLength(1);
    expect(await typesOf(orderId)).toHaveLength(3);

    // The provider refused the one request outright (it ran nothing): resolving as failed need not
    // wait the five minutes a request that got no answer may still be executing at the provider.
    const resolved = await harness.app.inject({
      method: 'POST',
      url: `/v1/support/orders/${orderId}/resolve`,
      headers: auth('support'),
      payload: { resolution: 'failed', note: 'amount below the provider minimum; nothing was charged' },
    });
    expect([resolved.statusCode, resolved.json()]).toMatchObject([200, { status: 'failed' }]);
  });
});
