/**
 * A payment the provider takes for an order while the order waits for review (found black-box: made
 * outside Idem, for a customer created after the order went to review) must be in front of the person
 * who resolves the case. Its webhook names it on the order, and the check before a resolution finds it
 * even without any attempt of Idem's: resolving as "failed", which lets the customer pay again, is
 * refused, and "paid" records that payment. Before, the webhook changed nothing, "failed" was accepted
 * and the next request charged the customer a second time (DESIGN §9.1).
 */
import { randomUUID } from 'node:crypto';
import { auth, deliverWebhooksTo, startTestApp, type TestApp } from '../../test/harness/test-app';
import { WebhookDeliveries, chargeOrder, loadOrder, orderStream } from '../payments';
import { isSucceededCharge } from '../sandbox';

const SECRET = 'whsec_test_review_payment';
let harness: TestApp;

beforeAll(async () => {
  harness = await startTestApp('payment_during_review', { IDEM_WEBHOOK_SECRET: SECRET, IDEM_PAYMENT_METHOD: 'saved_card' });
  await deliverWebhooksTo(harness, SECRET);
});
afterAll(() => harness.close());

const resolve = (orderId: string, resolution: 'paid' | 'failed') =>
  harness.app.inject({
    method: 'POST',
    url: `/v1/support/orders/${orderId}/resolve`,
    headers: auth('support'),
    payload: { resolution, note: 'checked the dashboard' },
  });

/** An order sent to review before any attempt: its customer is unknown to the provider (DESIGN §7.5). */
async function orderInReviewWithoutAttempt(customerId: string): Promise<string> {
  const orderId = `rv-${randomUUID()}`;
  const requested = await harness.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge`,
    headers: auth('storefront'),
    payload: { amount: 1250, currency: 'EUR', customerId },
  });
  expect(requested.statusCode).toBe(202);
  await chargeOrder(
    {
      store: harness.runtime.eventStore,
      gateway: harness.gateway,
      workerId: 'w',
      outsidePayments: new WebhookDeliveries(harness.runtime.pool),
    },
    orderId,
  );
  const { state } = await loadOrder(harness.runtime.eventStore, orderId);
  expect(state).toMatchObject({ status: 'needs_review', attempts: 0 });
  return orderId;
}

describe('a payment taken while the order waits for review', () => {
  it('is named on the order by its webhook, blocks "failed", and is the payment "paid" records', async () => {
    const customerId = `cus_${randomUUID().slice(0, 8)}`;
    const orderId = await orderInReviewWithoutAttempt(customerId);
    harness.sandbox.createCustomer({ id: customerId, paymentMethod: 'pm_card_visa' });
    const outside = harness.sandbox.recordOutsideCharge({ orderId, amount: 1250, currency: 'EUR', customer: customerId });
    await harness.sandbox.webhooksIdle();

    const events = await harness.runtime.eventStore.readStream(orderStream(orderId));
    expect(events.at(-1)).toMatchObject({ type: 'ChargeNeedsReview', data: { paymentIntentId: outside.id } });
    const failed = await resolve(orderId, 'failed');
    expect(failed.statusCode).toBe(422);
    expect(failed.json()).toMatchObject({ code: 'ORDER.PROVIDER_HOLDS_CHARGE', succeeded: [outside.id] });
    expect((await loadOrder(harness.runtime.eventStore, orderId)).state.status).toBe('needs_review');

    const paid = await resolve(orderId, 'paid');
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', paymentIntentId: outside.id });
    expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
  });

  it('blocks "failed" for a payment on the order\'s customer even when its webhook never came', async () => {
    const customerId = `cus_${randomUUID().slice(0, 8)}`;
    const orderId = await orderInReviewWithoutAttempt(customerId);
    harness.sandbox.createCustomer({ id: customerId, paymentMethod: 'pm_card_visa' });
    harness.sandbox.configureWebhook(undefined);
    try {
      const outside = harness.sandbox.recordOutsideCharge({ orderId, amount: 1250, currency: 'EUR', customer: customerId });
      const failed = await resolve(orderId, 'failed');
      expect(failed.statusCode).toBe(422);
      expect(failed.json()).toMatchObject({ code: 'ORDER.PROVIDER_HOLDS_CHARGE', succeeded: [outside.id] });
    } finally {
      const url = `${await harness.app.getUrl()}/v1/webhooks/payments`.replace('[::1]', '127.0.0.1');
      harness.sandbox.configureWebhook({ url, secret: SECRET });
    }
  });

  it('names a payment made without a customer, which only its webhook can report, and blocks "failed"', async () => {
    const orderId = await orderInReviewWithoutAttempt(`cus_${randomUUID().slice(0, 8)}`);
    const outside = harness.sandbox.recordOutsideCharge({ orderId, amount: 1250, currency: 'EUR' });
    await harness.sandbox.webhooksIdle();

    const failed = await resolve(orderId, 'failed');
    expect(failed.statusCode).toBe(422);
    expect(failed.json()).toMatchObject({ code: 'ORDER.PROVIDER_HOLDS_CHARGE', succeeded: [outside.id] });
  });

  it('blocks "failed" for a payment made without a customer whose webhook never came, once search shows it', async () => {
    // Found black-box: no customer's list holds such a payment and no webhook named it, so "failed" was
    // accepted and the next request charged the order a second time. Search (by metadata.order_id) finds
    // it once it has caught up, here at once.
    const orderId = await orderInReviewWithoutAttempt(`cus_${randomUUID().slice(0, 8)}`);
    harness.sandbox.configureWebhook(undefined);
    harness.sandbox.setSearchLag(0);
    try {
      const outside = harness.sandbox.recordOutsideCharge({ orderId, amount: 1250, currency: 'EUR' });
      const failed = await resolve(orderId, 'failed');
      expect(failed.statusCode).toBe(422);
      expect(failed.json()).toMatchObject({ code: 'ORDER.PROVIDER_HOLDS_CHARGE', succeeded: [outside.id] });
      expect((await loadOrder(harness.runtime.eventStore, orderId)).state.status).toBe('needs_review');
    } finally {
      harness.sandbox.setSearchLag(60_000); // the sandbox's default, as Stripe's "usually within a minute"
      const url = `${await harness.app.getUrl()}/v1/webhooks/payments`.replace('[::1]', '127.0.0.1');
      harness.sandbox.configureWebhook({ url, secret: SECRET });
    }
  });
});
