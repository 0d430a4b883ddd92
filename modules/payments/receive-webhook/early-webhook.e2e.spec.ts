/**
 * A payment made outside Idem whose webhook comes before Idem knows the order (found black-box: a
 * sandbox charge for o6, its `payment_intent.succeeded` answered `unknown_order`, then
 * `POST /v1/orders/o6/charge`): the running worker charged again, two successful provider charges for
 * one order (DESIGN §9.1) and the order `paid`. The early webhook must end as a late one does: no
 * charge of Idem's, the order in review naming the payment, "failed" refused and "paid" recording it.
 */
import { randomUUID } from 'node:crypto';
import { auth } from '../../../test/harness/test-app';
import { startTestService, type TestService } from '../../../test/harness/test-service';
import { isSucceededCharge } from '../../sandbox';
import { loadOrder } from '../load-order';
import { orderStream } from '../order.events';
import { archiveFinishedRows } from '../retention/archive-finished-rows';
import { longestRetryWindowMs } from '../retention/retry-window';

const SECRET = 'whsec_test_early_webhook';
let service: TestService;

beforeAll(async () => {
  service = await startTestService('early_webhook', {
    IDEM_WEBHOOK_SECRET: SECRET,
    IDEM_PAYMENT_METHOD: 'saved_card',
    IDEM_JOB_POLL_INTERVAL: '100ms',
  });
  service.sandbox.configureWebhook({ url: `${service.url}/v1/webhooks/payments`, secret: SECRET });
});
afterAll(() => service?.close());

/** A customer with a card that pays, and a succeeded charge for `orderId` made at the sandbox, its webhook delivered. */
async function outsidePaymentFor(orderId: string, customerId: string) {
  service.sandbox.createCustomer({ id: customerId, paymentMethod: 'pm_card_visa' });
  const outside = service.sandbox.recordOutsideCharge({ orderId, amount: 1250, currency: 'EUR', customer: customerId });
  await service.sandbox.webhooksIdle();
  return outside;
}

/** The storefront's request, waiting for the order's terminal state. */
const requestCharge = (orderId: string, customerId: string) =>
  service.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge?waitMs=10000`,
    headers: auth('storefront'),
    payload: { amount: 1250, currency: 'EUR', customerId },
  });
const resolve = (orderId: string, resolution: 'paid' | 'failed') =>
  service.app.inject({
    method: 'POST',
    url: `/v1/support/orders/${orderId}/resolve`,
    headers: auth('support'),
    payload: { resolution, note: 'the customer paid by phone' },
  });
const intentCreates = (orderId: string) =>
  service.sandbox.requests({ orderId }).filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');

describe('a succeeded payment whose webhook arrives before the order exists', () => {
  it('stops the first charge: one successful charge at the provider, the order in review naming it', async () => {
    const orderId = `early-${randomUUID()}`;
    const customerId = `cus_${randomUUID().slice(0, 8)}`;
    const outside = await outsidePaymentFor(orderId, customerId);
    const remembered = await service.runtime.pool.query(
      'SELECT outcome, payment_intent_id, amount, currency FROM payment_webhook_deliveries WHERE order_id = $1',
      [orderId],
    );
    expect(remembered.rows).toEqual([{ outcome: 'unknown_order', payment_intent_id: outside.id, amount: '1250', currency: 'EUR' }]);

    const requested = await requestCharge(orderId, customerId);

    expect(requested.json()).toMatchObject({ orderId, status: 'needs_review', attempts: 0 });
    expect(
      service.sandbox
        .charges({ orderId })
        .filter(isSucceededCharge)
        .map((intent) => intent.id),
    ).toEqual([outside.id]);
    expect(intentCreates(orderId)).toEqual([]);
    const events = await service.runtime.eventStore.readStream(orderStream(orderId));
    expect(events.map((e) => e.type)).toEqual(['ChargeRequested', 'ChargeNeedsReview']);
    expect(events[1].data).toMatchObject({
      paymentIntentId: outside.id,
      reason: expect.stringContaining(`payment ${outside.id} of 1250 EUR in minor units for this order as succeeded`),
    });
    expect((await loadOrder(service.runtime.eventStore, orderId)).state.namedPaymentIntentIds).toEqual([outside.id]);
  });

  it('is refused as "failed" while that payment stands, and "paid" records it as the order\'s payment', async () => {
    const orderId = `early-${randomUUID()}`;
    const customerId = `cus_${randomUUID().slice(0, 8)}`;
    const outside = await outsidePaymentFor(orderId, customerId);
    expect((await requestCharge(orderId, customerId)).json()).toMatchObject({ status: 'needs_review' });

    const failed = await resolve(orderId, 'failed');
    expect(failed.statusCode).toBe(422);
    expect(failed.json()).toMatchObject({ code: 'ORDER.PROVIDER_HOLDS_CHARGE', succeeded: [outside.id] });
    expect((await loadOrder(service.runtime.eventStore, orderId)).state.status).toBe('needs_review');

    const paid = await resolve(orderId, 'paid');
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', paymentIntentId: outside.id });
    expect(service.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
    expect(intentCreates(orderId)).toEqual([]);
  });

  it('still stops the charge once retention has archived the delivery', async () => {
    const orderId = `early-${randomUUID()}`;
    const customerId = `cus_${randomUUID().slice(0, 8)}`;
    const outside = await outsidePaymentFor(orderId, customerId);
    const later = new Date(Date.now() + 2 * longestRetryWindowMs());
    const archived = await archiveFinishedRows(service.runtime.pool, { olderThanMs: longestRetryWindowMs(), now: later });
    expect(archived.webhookDeliveries).toBeGreaterThan(0);
    const live = await service.runtime.pool.query('SELECT 1 FROM payment_webhook_deliveries WHERE order_id = $1', [orderId]);
    expect(live.rowCount).toBe(0);

    expect((await requestCharge(orderId, customerId)).json()).toMatchObject({ status: 'needs_review' });
    expect(
      service.sandbox
        .charges({ orderId })
        .filter(isSucceededCharge)
        .map((intent) => intent.id),
    ).toEqual([outside.id]);
    expect(intentCreates(orderId)).toEqual([]);
  });
});
