/**
 * The early webhook's race: the charge is requested, and its worker looks for outside payments, after
 * the webhook found no order but before it remembered the payment. The webhook then looks at the order
 * again, finds the request and sends the order to review naming the payment, as for a late webhook —
 * where, without that second look, the order stayed paid by Idem's own charge beside the outside one.
 * No background worker here: the spec runs the worker's step itself, at the moment the race needs.
 */
import { randomUUID } from 'node:crypto';
import { auth, deliverWebhooksTo, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { isSucceededCharge } from '../../sandbox';
import { chargeOrder } from '../charge-order/charge-order.job';
import { loadOrder } from '../load-order';
import { orderStream } from '../order.events';
import { WebhookDeliveries } from './webhook-deliveries';

const SECRET = 'whsec_test_early_webhook_race';
let harness: TestApp;

beforeAll(async () => {
  harness = await startTestApp('early_webhook_race', { IDEM_WEBHOOK_SECRET: SECRET, IDEM_PAYMENT_METHOD: 'saved_card' });
  await deliverWebhooksTo(harness, SECRET);
});
afterAll(() => harness?.close());

describe('a charge requested and attempted while the early webhook is between its look and its insert', () => {
  it('still ends in review naming the outside payment, by the webhook looking at the order again', async () => {
    const orderId = `race-${randomUUID()}`;
    const customerId = `cus_${randomUUID().slice(0, 8)}`;
    harness.sandbox.createCustomer({ id: customerId, paymentMethod: 'pm_card_visa' });
    const deliveries = harness.app.get(WebhookDeliveries);
    const remember = deliveries.remember.bind(deliveries);
    const worker = { store: harness.runtime.eventStore, gateway: harness.gateway, workerId: 'w', outsidePayments: deliveries };
    const spy = jest.spyOn(deliveries, 'remember').mockImplementationOnce(async (...args) => {
      // The webhook has answered itself `unknown_order`; now the request lands and its worker charges.
      const requested = await harness.app.inject({
        method: 'POST',
        url: `/v1/orders/${orderId}/charge`,
        headers: auth('storefront'),
        payload: { amount: 1250, currency: 'EUR', customerId },
      });
      expect(requested.statusCode).toBe(202);
      expect(await chargeOrder(worker, orderId)).toBe('settled');
      return remember(...args);
    });
    try {
      const outside = harness.sandbox.recordOutsideCharge({ orderId, amount: 1250, currency: 'EUR', customer: customerId });
      await harness.sandbox.webhooksIdle();

      expect(spy).toHaveBeenCalledWith(expect.any(String), 'payment_intent.succeeded', orderId, 'unknown_order', {
        paymentIntentId: outside.id,
        amount: 1250,
        currency: 'EUR',
      });
      const events = await harness.runtime.eventStore.readStream(orderStream(orderId));
      expect(events.map((e) => e.type)).toEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeSucceeded', 'ChargeNeedsReview']);
      expect(events[3].data).toMatchObject({ paymentIntentId: outside.id });
      expect((await loadOrder(harness.runtime.eventStore, orderId)).state.status).toBe('needs_review');
      // The worst case of this window, in front of the person who resolves it: two payments, one to refund.
      expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
  });
});
