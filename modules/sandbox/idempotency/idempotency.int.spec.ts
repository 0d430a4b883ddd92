import Stripe from 'stripe';
import type { PaymentIntent, RequestLogEntry } from '../index';
import { IDEMPOTENCY_KEY_TTL_MS, isSucceededCharge } from '../index';
import { chargeParams, control, failureOf, nextSignal, startSandbox, stripeFor, type SandboxUnderTest } from '../sandbox.fixture';

describe("Stripe's idempotency layer", () => {
  let t: SandboxUnderTest;
  let now: number;
  beforeEach(async () => {
    now = Date.UTC(2026, 0, 15, 12, 0, 0);
    t = await startSandbox({ clock: () => now });
  });
  afterEach(() => t.sandbox.close());

  describe('when a key is reused with the same parameters after the first request finished', () => {
    it('replays the stored answer with Idempotent-Replayed and Original-Request, and charges once', async () => {
      const first = await t.stripe.paymentIntents.create(chargeParams('481'), { idempotencyKey: 'order-481' });
      const again = await t.stripe.paymentIntents.create(chargeParams('481'), { idempotencyKey: 'order-481' });

      expect(again.id).toBe(first.id);
      expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
      expect(again.lastResponse.headers['original-request']).toBe(first.lastResponse.requestId);
      expect(again.lastResponse.requestId).not.toBe(first.lastResponse.requestId);
      expect(t.sandbox.charges({ orderId: '481' })).toHaveLength(1);
    });

    it('replays the body byte for byte', async () => {
      const send = () =>
        fetch(`${t.sandbox.url}/v1/payment_intents`, {
          method: 'POST',
          headers: { authorization: 'Bearer sk_test_x', 'idempotency-key': 'raw-1', 'content-type': 'application/x-www-form-urlencoded' },
          body: 'amount=4200&currency=eur&metadata[order_id]=9&payment_method=pm_card_visa&confirm=true',
        });
      const first = await send();
      const firstBody = await first.text();
      const replay = await send();

      expect(replay.status).toBe(first.status);
      expect(await replay.text()).toBe(firstBody);
    });

    it('replays a decline as the same StripeCardError without a second attempt', async () => {
      const params = chargeParams('482', { payment_method: 'pm_card_chargeDeclined' });
      const first = await failureOf(t.stripe.paymentIntents.create(params, { idempotencyKey: 'order-482' }));
      const again = await failureOf(t.stripe.paymentIntents.create(params, { idempotencyKey: 'order-482' }));

      expect(again).toBeInstanceOf(Stripe.errors.StripeCardError);
      expect(again.payment_intent?.id).toBe(first.payment_intent?.id);
      expect(again.headers?.['idempotent-replayed']).toBe('true');
      expect(t.sandbox.charges({ orderId: '482' })).toHaveLength(1);
    });

    it('treats form fields in another order as the same parameters', async () => {
      const first = await t.stripe.paymentIntents.create(chargeParams('483'), { idempotencyKey: 'order-483' });
      const { confirm, amount, ...rest } = chargeParams('483');
      const reordered = await t.stripe.paymentIntents.create({ confirm, ...rest, amount }, { idempotencyKey: 'order-483' });

      expect(reordered.id).toBe(first.id);
    });
  });

  describe('when the first request with the key is still in flight', () => {
    it('answers 409 idempotency_key_in_use and stores nothing for the loser', async () => {
      await control(t.sandbox, 'POST', '/_sandbox/faults', { kind: 'latency', ms: 1500, orderId: '484' });
      const arrived = nextSignal(t.sandbox, 'fault-struck');
      const first = t.stripe.paymentIntents.create(chargeParams('484'), { idempotencyKey: 'order-484' });
      await arrived;

      const conflict = await failureOf(t.stripe.paymentIntents.create(chargeParams('484'), { idempotencyKey: 'order-484' }));

      expect(conflict).toBeInstanceOf(Stripe.errors.StripeAPIError);
      expect(conflict).toMatchObject({ statusCode: 409, code: 'idempotency_key_in_use' });
      const winner = await first;
      expect(winner.status).toBe('succeeded');
      const replay = await t.stripe.paymentIntents.create(chargeParams('484'), { idempotencyKey: 'order-484' });
      expect(replay.id).toBe(winner.id);
      expect(t.sandbox.charges({ orderId: '484' })).toHaveLength(1);
    });

    it('marks the 409 retryable and echoes the key and the request holding it', async () => {
      await control(t.sandbox, 'POST', '/_sandbox/faults', { kind: 'latency', ms: 1000, orderId: '484b' });
      const arrived = nextSignal(t.sandbox, 'fault-struck');
      const first = t.stripe.paymentIntents.create(chargeParams('484b'), { idempotencyKey: 'order-484b' });
      const { requestId } = await arrived;

      const conflict = await failureOf(t.stripe.paymentIntents.create(chargeParams('484b'), { idempotencyKey: 'order-484b' }));

      expect(conflict.headers).toMatchObject({
        'stripe-should-retry': 'true',
        'idempotency-key': 'order-484b',
        'original-request': requestId,
      });
      await first;
    });
  });

  describe('when the key is reused with other parameters', () => {
    it('answers 400 idempotency_error (StripeIdempotencyError) and executes nothing', async () => {
      const first = await t.stripe.paymentIntents.create(chargeParams('485'), { idempotencyKey: 'order-485' });

      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('485', { amount: 9900 }), { idempotencyKey: 'order-485' }));

      expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
      expect(error).toMatchObject({ statusCode: 400, rawType: 'idempotency_error' });
      expect(error.headers).toMatchObject({ 'idempotency-key': 'order-485', 'original-request': first.lastResponse.requestId });
      expect(t.sandbox.charges({ orderId: '485' }).map((intent) => intent.amount)).toEqual([4200]);
    });
  });

  describe('when the first request failed validation', () => {
    it('did not store that failure, so the corrected request with the same key executes', async () => {
      const invalid = await failureOf(
        t.stripe.paymentIntents.create(chargeParams('486', { currency: 'euro' }), { idempotencyKey: 'order-486' }),
      );
      const valid = await t.stripe.paymentIntents.create(chargeParams('486'), { idempotencyKey: 'order-486' });

      expect(invalid).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(valid.status).toBe('succeeded');
      expect(valid.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    });
  });

  describe('when two accounts use the same key', () => {
    it('keeps them apart: each account gets its own answer', async () => {
      const other = stripeFor(t.sandbox, {}, 'sk_test_other_account');
      const mine = await t.stripe.paymentIntents.create(chargeParams('486a'), { idempotencyKey: 'shared-key' });
      const theirs = await other.paymentIntents.create(chargeParams('486b', { amount: 1234 }), { idempotencyKey: 'shared-key' });

      expect(theirs.id).not.toBe(mine.id);
      expect(theirs.amount).toBe(1234);
    });
  });

  describe('expiry after 24 hours on the injected clock', () => {
    it('replays until the key is 24 h old, then treats the same key as a new request', async () => {
      const first = await t.stripe.paymentIntents.create(chargeParams('487'), { idempotencyKey: 'order-487' });

      now += IDEMPOTENCY_KEY_TTL_MS - 1;
      const beforeExpiry = await t.stripe.paymentIntents.create(chargeParams('487'), { idempotencyKey: 'order-487' });
      now += 1;
      // A new execution: Stripe charges again ("We generate a new request if a key is reused after the original is pruned").
      const afterExpiry = await t.stripe.paymentIntents.create(chargeParams('487'), { idempotencyKey: 'order-487' });

      expect(beforeExpiry.id).toBe(first.id);
      expect(afterExpiry.id).not.toBe(first.id);
      expect(afterExpiry.lastResponse.headers['idempotent-replayed']).toBeUndefined();
      expect(t.sandbox.charges({ orderId: '487' }).map((intent) => intent.status)).toEqual(['succeeded', 'succeeded']);
    });
  });

  describe('when one order is charged again under a new key', () => {
    it('charges again, as Stripe does (only the key dedupes), and /_sandbox/charges counts two succeeded charges', async () => {
      const first = await t.stripe.paymentIntents.create(chargeParams('488'), { idempotencyKey: 'attempt-1' });
      const second = await t.stripe.paymentIntents.create(chargeParams('488'), { idempotencyKey: 'attempt-2' });

      const { body } = await control<{ data: PaymentIntent[]; charge_attempts: number }>(t.sandbox, 'GET', '/_sandbox/charges?orderId=488');

      expect(second.status).toBe('succeeded');
      expect(body.data.filter(isSucceededCharge).map((intent) => intent.id)).toEqual([first.id, second.id]);
      // Invariant 1 sees the double charge.
      expect(body.charge_attempts).toBe(2);
    });

    it('accepts a charge made outside the API (POST /_sandbox/charges) whatever the order holds, for stop-rule tests', async () => {
      await t.stripe.paymentIntents.create(chargeParams('490x'));
      const { status, body } = await control<PaymentIntent>(t.sandbox, 'POST', '/_sandbox/charges', {
        orderId: '490x',
        amount: 999,
        currency: 'EUR',
      });
      const invalid = await control<{ error: string }>(t.sandbox, 'POST', '/_sandbox/charges', {
        orderId: '490x',
        amount: -1,
        currency: 'EUR',
      });

      expect(status).toBe(201);
      expect(body).toMatchObject({ status: 'succeeded', amount: 999, currency: 'eur', metadata: { order_id: '490x' } });
      expect(invalid.status).toBe(400);
      expect(t.sandbox.charges({ orderId: '490x' }).map((intent) => [intent.status, intent.amount])).toEqual([
        ['succeeded', 4200],
        ['succeeded', 999],
      ]);
    });

    it('lists every intent of every order when /_sandbox/charges gets no orderId', async () => {
      await t.stripe.paymentIntents.create(chargeParams('490'));
      await failureOf(t.stripe.paymentIntents.create(chargeParams('491', { payment_method: 'pm_card_chargeDeclined' })));

      const { body } = await control<{ data: PaymentIntent[] }>(t.sandbox, 'GET', '/_sandbox/charges');

      expect(body.data.map((intent) => [intent.metadata.order_id, intent.status])).toEqual([
        ['490', 'succeeded'],
        ['491', 'requires_payment_method'],
      ]);
    });
  });

  describe('GET /_sandbox/requests', () => {
    it('logs method, path, key, status and whether the answer was a replay', async () => {
      await t.stripe.paymentIntents.create(chargeParams('489'), { idempotencyKey: 'order-489' });
      await t.stripe.paymentIntents.create(chargeParams('489'), { idempotencyKey: 'order-489' });
      await t.stripe.paymentIntents.search({ query: "metadata['order_id']:'489'" });

      const { body } = await control<{ data: RequestLogEntry[] }>(t.sandbox, 'GET', '/_sandbox/requests?orderId=489');

      expect(body.data).toEqual([
        expect.objectContaining({ method: 'POST', path: '/v1/payment_intents', idempotencyKey: 'order-489', status: 200, replayed: false }),
        expect.objectContaining({ method: 'POST', path: '/v1/payment_intents', idempotencyKey: 'order-489', status: 200, replayed: true }),
        expect.objectContaining({ method: 'GET', path: '/v1/payment_intents/search', idempotencyKey: null, status: 200 }),
      ]);
      expect(body.data[0].time).toBe(new Date(now).toISOString());
    });
  });
});
