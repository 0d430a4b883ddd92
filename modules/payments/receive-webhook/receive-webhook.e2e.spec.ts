import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { auth, deliverWebhooksTo, startTestApp, type TestApp } from '../../../test/harness/test-app';
import type { Sandbox } from '../../sandbox';
import { ChargeOutcomeStillUnknown, chargeOrder, type ChargeOrderDeps } from '../charge-order/charge-order.job';
import { loadOrder } from '../load-order';
import { secondChargeCount } from '../needs-review.alert';
import { orderStream } from '../order.events';
import { WebhookDeliveries } from './webhook-deliveries';

const SECRET = 'whsec_test_e2e';
let harness: TestApp;
let sandbox: Sandbox;
let deps: ChargeOrderDeps;
let webhookUrl: string;
const DECLINING = 'c-declining';

beforeAll(async () => {
  // Each customer's saved card is charged: c1 pays, DECLINING's card is Stripe's declining test card.
  harness = await startTestApp('webhooks', { IDEM_WEBHOOK_SECRET: SECRET, IDEM_PAYMENT_METHOD: 'saved_card' });
  harness.sandbox.createCustomer({ id: 'c1', paymentMethod: 'pm_card_visa' });
  harness.sandbox.createCustomer({ id: DECLINING, paymentMethod: 'pm_card_chargeDeclined' });
  webhookUrl = await deliverWebhooksTo(harness, SECRET);
  sandbox = harness.sandbox;
  deps = {
    store: harness.runtime.eventStore,
    workerId: 'w',
    gateway: harness.gateway,
    outsidePayments: new WebhookDeliveries(harness.runtime.pool),
  };
});
afterAll(() => harness.close());

async function requestedOrder(customerId = 'c1'): Promise<string> {
  const orderId = `o-${randomUUID()}`;
  const response = await harness.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge`,
    headers: auth('storefront'),
    payload: { amount: 4200, currency: 'EUR', customerId },
  });
  expect(response.statusCode).toBe(202);
  return orderId;
}
const control = (path: string, body: object) =>
  fetch(`${sandbox.url}/_sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const orderTypes = async (orderId: string) => (await harness.runtime.eventStore.readStream(orderStream(orderId))).map((e) => e.type);
const postSigned = (payload: string, header: string) =>
  fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });

/** A signed `payment_intent.payment_failed` delivery for an intent of `orderId` made under `providerKey`. */
function postDecline({
  intentId,
  orderId,
  providerKey,
  amount,
}: {
  intentId: string;
  orderId: string;
  providerKey: string;
  amount: number;
}) {
  const intent = {
    id: intentId,
    object: 'payment_intent',
    amount,
    currency: 'eur',
    status: 'requires_payment_method',
    metadata: { order_id: orderId, provider_key: providerKey },
    latest_charge: null,
    last_payment_error: { decline_code: 'generic_decline' },
  };
  const payload = JSON.stringify({
    id: `evt_${randomUUID()}`,
    object: 'event',
    type: 'payment_intent.payment_failed',
    data: { object: intent },
  });
  return postSigned(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }));
}

describe('POST /v1/webhooks/payments', () => {
  it('closes an unknown outcome with ChargeSucceeded{recovered} from the signed succeeded webhook', async () => {
    const orderId = await requestedOrder();
    await control('faults', { kind: 'drop_after_commit', orderId, times: 2 });
    // Hold the webhook back until the worker has recorded the unknown outcome, then deliver it.
    sandbox.configureWebhook(undefined);
    await expect(chargeOrder(deps, orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
    sandbox.configureWebhook({ url: webhookUrl, secret: SECRET });
    const { data } = (await (await fetch(`${sandbox.url}/_sandbox/webhooks/events`)).json()) as {
      data: Array<{ event: { id: string; data: { object: { metadata: { order_id: string } } } } }>;
    };
    const { event } = data.find((record) => record.event.data.object.metadata.order_id === orderId)!;
    expect((await control('webhooks/resend', { eventId: event.id })).status).toBeLessThan(300);
    await sandbox.webhooksIdle();
    const { state } = await loadOrder(harness.runtime.eventStore, orderId);
    expect(state).toMatchObject({ status: 'paid', recovered: true });
    expect(await orderTypes(orderId)).toEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeOutcomeUnknown', 'ChargeSucceeded']);
  });

  it('applies a duplicated delivery once', async () => {
    await control('webhooks/mode', { duplicate: true });
    try {
      const orderId = await requestedOrder();
      await chargeOrder(deps, orderId);
      await sandbox.webhooksIdle();
      expect(await orderTypes(orderId)).toEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeSucceeded']);
      const deliveries = await harness.runtime.pool.query('SELECT outcome FROM payment_webhook_deliveries WHERE order_id = $1', [orderId]);
      expect(deliveries.rows).toEqual([{ outcome: 'unchanged_paid' }]);
    } finally {
      await control('webhooks/mode', { duplicate: false });
    }
  });

  it.each([
    ['over 64 characters', 'o'.repeat(300)],
    ['with a control character', 'o-\u0007-bell'],
  ])('answers 200 no_order for an order id no order of ours can have (%s), so Stripe does not redeliver it', async (_, orderId) => {
    const events = async () => Number((await harness.runtime.pool.query('SELECT count(*) AS n FROM idem_events')).rows[0].n);
    const before = await events();
    const response = await postDecline({ intentId: `pi_${randomUUID()}`, orderId, providerKey: 'k', amount: 4200 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, outcome: 'no_order' });
    expect(await events()).toBe(before);
  });

  it('never moves a paid order back when a failure for another request arrives late', async () => {
    const orderId = await requestedOrder();
    await chargeOrder(deps, orderId);
    const response = await postDecline({ intentId: 'pi_late', orderId, providerKey: 'an-older-key', amount: 4200 });
    expect(response.status).toBe(200);
    expect((await loadOrder(harness.runtime.eventStore, orderId)).state.status).toBe('paid');
  });

  it('hands a charge made outside Idem to review instead of marking the order paid under it', async () => {
    const orderId = await requestedOrder();
    const outside = sandbox.recordOutsideCharge({ orderId, amount: 4200, currency: 'EUR', customer: 'c1' });
    await sandbox.webhooksIdle();
    const { state } = await loadOrder(harness.runtime.eventStore, orderId);
    expect(state).toMatchObject({ status: 'needs_review', lastError: expect.stringContaining(`payment ${outside.id}`) });
    expect(state.paymentIntentId).toBeUndefined();
    expect(await orderTypes(orderId)).toEqual(['ChargeRequested', 'ChargeNeedsReview']);
  });

  it('sends a paid order charged a second time to review, with the second payment named, and raises the alert', async () => {
    const orderId = await requestedOrder();
    await chargeOrder(deps, orderId);
    await sandbox.webhooksIdle();
    const before = { types: await orderTypes(orderId), alerts: await secondChargeCount() };
    const paidBy = (await loadOrder(harness.runtime.eventStore, orderId)).state.paymentIntentId;
    const second = sandbox.recordOutsideCharge({ orderId, amount: 9999, currency: 'EUR', customer: 'c1' });
    await sandbox.webhooksIdle();
    expect(await orderTypes(orderId)).toEqual([...before.types, 'ChargeNeedsReview']);
    expect(await secondChargeCount()).toBe(before.alerts + 1);
    const deliveries = await harness.runtime.pool.query(
      'SELECT outcome FROM payment_webhook_deliveries WHERE order_id = $1 ORDER BY received_at',
      [orderId],
    );
    expect(deliveries.rows.map((row: { outcome: string }) => row.outcome)).toEqual(['unchanged_paid', 'ChargeNeedsReview']);
    const { state } = await loadOrder(harness.runtime.eventStore, orderId);
    // The charge that paid the order stays its payment; the second one is the case's reason.
    expect(state).toMatchObject({ status: 'needs_review', paymentIntentId: paidBy, lastError: expect.stringContaining(second.id) });
  });

  describe("when a decline under the order's own key arrives after the order settled", () => {
    it.each([
      ['paid', 'c1'],
      ['failed', DECLINING],
    ])('appends nothing to a %s order', async (status, customerId) => {
      const orderId = await requestedOrder(customerId);
      await chargeOrder(deps, orderId);
      await sandbox.webhooksIdle();
      const before = await orderTypes(orderId);
      expect((await loadOrder(harness.runtime.eventStore, orderId)).state.status).toBe(status);
      const response = await postDecline({ intentId: 'pi_same_key', orderId, providerKey: `idem-order-${orderId}-r1`, amount: 4200 });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ outcome: `unchanged_${status}` });
      expect(await orderTypes(orderId)).toEqual(before);
    });
  });

  describe('refuses and records nothing for', () => {
    const payloadFor = (orderId: string) =>
      JSON.stringify({
        id: `evt_${randomUUID()}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        data: { object: { id: 'pi_forged', amount: 4200, currency: 'eur', status: 'succeeded', metadata: { order_id: orderId } } },
      });

    it.each([
      ['a forged signature', (payload: string) => Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' })],
      [
        'a stale timestamp (> 300 s)',
        (payload: string) =>
          Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: Math.floor(Date.now() / 1000) - 301 }),
      ],
      [
        // Found black-box: stripe-node checks only a timestamp's age, and a delivery signed an hour ahead was applied.
        'a timestamp more than 300 s ahead of our clock',
        (payload: string) =>
          Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: Math.floor(Date.now() / 1000) + 3600 }),
      ],
      ['a signature of another body', () => Stripe.webhooks.generateTestHeaderString({ payload: '{}', secret: SECRET })],
      ['no signature', () => ''],
    ])('%s', async (_label, sign) => {
      const orderId = await requestedOrder();
      const payload = payloadFor(orderId);
      const response = await postSigned(payload, sign(payload));
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/problem\+json/);
      expect(((await response.json()) as { code: string }).code).toMatch(/^WEBHOOK\.SIGNATURE_/);
      expect(await orderTypes(orderId)).toEqual(['ChargeRequested']);
    });
  });

  describe('answers 400 WEBHOOK.MALFORMED, records nothing and stays up, for a validly signed delivery that is not a payment event', () => {
    const intentOf = (orderId: string) => ({
      id: 'pi_x',
      amount: 4200,
      currency: 'eur',
      status: 'succeeded',
      metadata: { order_id: orderId },
    });
    it.each([
      ['no data object', (_orderId: string) => ({ id: `evt_${randomUUID()}`, type: 'payment_intent.succeeded', data: {} })],
      [
        'an intent without amount and currency',
        (orderId: string) => ({
          id: `evt_${randomUUID()}`,
          type: 'payment_intent.succeeded',
          data: { object: { id: 'pi_x', status: 'succeeded', metadata: { order_id: orderId } } },
        }),
      ],
      ['an array', (_orderId: string) => [1, 2]],
      ['no event id', (orderId: string) => ({ type: 'payment_intent.succeeded', data: { object: intentOf(orderId) } })],
    ])('%s', async (_label, body) => {
      const orderId = await requestedOrder();
      const payload = JSON.stringify(body(orderId));
      const response = await postSigned(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }));
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/problem\+json/);
      expect(await response.json()).toMatchObject({ code: 'WEBHOOK.MALFORMED', errors: expect.any(Array) });
      expect(await orderTypes(orderId)).toEqual(['ChargeRequested']);
      const { rows } = await harness.runtime.pool.query('SELECT count(*)::int AS n FROM payment_webhook_deliveries WHERE order_id = $1', [
        orderId,
      ]);
      expect(rows[0].n).toBe(0);
    });
  });
});
