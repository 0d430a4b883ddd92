/**
 * Resolving a review as "failed" lets the customer request again, charged under a new provider key.
 * With search lagging as Stripe's does (the sandbox's default), the provider is asked through its
 * strongly consistent list of the customer's payments, never by a create: a charge that went through
 * must stop the resolution, and the check itself must never charge.
 */
import { randomUUID } from 'node:crypto';
import { auth, startTestApp, type TestApp } from '../../test/harness/test-app';
import { ChargeOutcomeStillUnknown, WebhookDeliveries, chargeOrder, loadOrder, type ChargeOrderDeps } from '../payments';
import { isSucceededCharge } from '../sandbox';

let harness: TestApp;
let deps: ChargeOrderDeps;
const DECLINING = 'cus_rf_declining';
beforeAll(async () => {
  // Each customer's saved card is charged: cus_rf pays, DECLINING's card is Stripe's declining test card.
  harness = await startTestApp('resolve_as_failed', { IDEM_PAYMENT_METHOD: 'saved_card' });
  harness.sandbox.createCustomer({ id: 'cus_rf', paymentMethod: 'pm_card_visa' });
  harness.sandbox.createCustomer({ id: DECLINING, paymentMethod: 'pm_card_chargeDeclined' });
  deps = {
    store: harness.runtime.eventStore,
    gateway: harness.gateway,
    workerId: 'w',
    outsidePayments: new WebhookDeliveries(harness.runtime.pool),
  };
});
afterAll(() => harness.close());

const fault = (body: object) =>
  fetch(`${harness.sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const resolveAsFailed = (orderId: string) =>
  harness.app.inject({
    method: 'POST',
    url: `/v1/support/orders/${orderId}/resolve`,
    headers: auth('support'),
    payload: { resolution: 'failed', note: 'customer says the card was not charged' },
  });

/** Five unknown outcomes in a row (each answer lost) → needs review. */
async function reviewAfterFiveUnknowns(
  customerId: string,
  kind: 'drop_after_commit' | 'timeout' | 'error_500',
  extraFault: { stored?: boolean; times?: number } = {},
): Promise<string> {
  const orderId = `rf-${randomUUID()}`;
  await harness.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge`,
    headers: auth('storefront'),
    payload: { amount: 4200, currency: 'EUR', customerId },
  });
  // stripe-node retries a closed connection once with the same key: two lost answers per run.
  await fault({ kind, orderId, times: kind === 'error_500' ? 1 : 10, ms: 50, ...extraFault });
  for (let run = 1; run < 5; run++) await expect(chargeOrder(deps, orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
  expect(await chargeOrder(deps, orderId)).toBe('settled');
  expect((await loadOrder(harness.runtime.eventStore, orderId)).state.status).toBe('needs_review');
  await fetch(`${harness.sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
  return orderId;
}

describe('POST /v1/support/orders/{orderId}/resolve as failed', () => {
  describe('when the first attempt did charge the card but every answer was lost (search not showing it yet)', () => {
    it('refuses, naming the succeeded intent, and the order is never charged twice', async () => {
      const orderId = await reviewAfterFiveUnknowns('cus_rf', 'drop_after_commit');
      expect(await harness.gateway.findPayments(orderId)).toEqual([]);

      const answer = await resolveAsFailed(orderId);

      const [charge] = harness.sandbox.charges({ orderId }).filter(isSucceededCharge);
      expect(answer.statusCode).toBe(422);
      expect(answer.json()).toMatchObject({ code: 'ORDER.PROVIDER_HOLDS_CHARGE', succeeded: [charge.id] });
      expect((await loadOrder(harness.runtime.eventStore, orderId)).state.status).toBe('needs_review');
      // A new request is refused while the order is in review: no second key, no second charge.
      const again = await harness.app.inject({
        method: 'POST',
        url: `/v1/orders/${orderId}/charge`,
        headers: auth('storefront'),
        payload: { amount: 4200, currency: 'EUR', customerId: 'cus_rf' },
      });
      expect(again.statusCode).not.toBe(202);
      expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
    });
  });

  describe('when the provider shows no payment under a key whose last attempt began moments ago', () => {
    it('refuses with 503, writes nothing and charges nothing: a request under the key may still be executing', async () => {
      // Five 500s that the provider did not store at the key: no create was ever executed, so a
      // replay of the key (what the worker does) would execute it now — a check must not.
      const orderId = await reviewAfterFiveUnknowns('cus_rf', 'error_500', { stored: false, times: 10 });
      const before = (await harness.runtime.eventStore.readStream(`order-${orderId}`)).length;
      const requestsBefore = harness.sandbox.charges({ orderId }).length;

      const answer = await resolveAsFailed(orderId);

      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toMatchObject({ code: 'ORDER.PROVIDER_UNVERIFIED' });
      // When the key's request can no longer be executing: at most 5 minutes after its last attempt.
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(300);
      expect(answer.json().retryAfterSeconds).toBe(Number(answer.headers['retry-after']));
      expect(await harness.runtime.eventStore.readStream(`order-${orderId}`)).toHaveLength(before);
      expect(harness.sandbox.charges({ orderId })).toHaveLength(requestsBefore);
    });
  });

  describe('when the provider answers that the card was declined', () => {
    it('records the resolution, and a new request may follow', async () => {
      // The customer's saved card is Stripe's declining test card; every answer of the decline was lost.
      const orderId = await reviewAfterFiveUnknowns(DECLINING, 'drop_after_commit');

      const answer = await resolveAsFailed(orderId);

      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ status: 'failed' });
      expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(0);
    });
  });
});
