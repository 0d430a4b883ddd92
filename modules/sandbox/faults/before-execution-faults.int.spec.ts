import Stripe from 'stripe';
import { chargeParams, failureOf, injectFault, nextSignal, startSandbox, stripeFor, type SandboxUnderTest } from '../sandbox.fixture';

describe('faults that strike before execution (latency, error_500, timeout)', () => {
  let t: SandboxUnderTest;
  beforeEach(async () => {
    t = await startSandbox();
  });
  afterEach(() => t.sandbox.close());

  const loggedFor = (requestId: string) => nextSignal(t.sandbox, 'request-logged', (entry) => entry.requestId === requestId);

  describe('rate_limit', () => {
    it("answers 429 rate_limit_error in front of the idempotency layer: nothing is created or stored, and the key's next request runs", async () => {
      await injectFault(t.sandbox, { kind: 'rate_limit' });

      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('rl'), { idempotencyKey: 'k-rl' }));

      expect(error).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
      expect({ status: error.statusCode, type: error.type }).toEqual({ status: 429, type: 'StripeRateLimitError' });
      expect(error.raw).toMatchObject({ type: 'rate_limit_error' });
      expect(t.sandbox.charges({ orderId: 'rl' })).toEqual([]);
      const retry = await t.stripe.paymentIntents.create(chargeParams('rl'), { idempotencyKey: 'k-rl' });
      expect(retry.status).toBe('succeeded');
      expect(retry.lastResponse.headers['idempotent-replayed']).toBeUndefined();
      expect(t.sandbox.requests().map(({ fault, status }) => ({ fault, status }))).toEqual([
        { fault: 'rate_limit', status: 429 },
        { fault: null, status: 200 },
      ]);
    });
  });

  describe('latency', () => {
    it('waits the given time and then answers normally', async () => {
      await injectFault(t.sandbox, { kind: 'latency', ms: 300 });
      const started = Date.now();

      const intent = await t.stripe.paymentIntents.create(chargeParams('1'), { idempotencyKey: 'k1' });

      expect(intent.status).toBe('succeeded');
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(t.sandbox.requests()[0]).toMatchObject({ fault: 'latency', status: 200 });
    });

    it('still commits when the client gave up during the delay: a timeout is not a failure', async () => {
      await injectFault(t.sandbox, { kind: 'latency', ms: 400 });
      const committed = nextSignal(t.sandbox, 'intent-committed');

      const error = await failureOf(
        stripeFor(t.sandbox, { timeout: 100 }).paymentIntents.create(chargeParams('1b'), { idempotencyKey: 'k1b' }),
      );

      expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
      expect((await committed).metadata).toEqual({ order_id: '1b' });
      const retry = await t.stripe.paymentIntents.create(chargeParams('1b'), { idempotencyKey: 'k1b' });
      expect(retry.lastResponse.headers['idempotent-replayed']).toBe('true');
      expect(t.sandbox.charges({ orderId: '1b' })).toHaveLength(1);
    });
  });

  describe('error_500', () => {
    it('answers 500 api_error, creates nothing, and stores the 500 under the key as Stripe does', async () => {
      await injectFault(t.sandbox, { kind: 'error_500' });

      const first = await failureOf(t.stripe.paymentIntents.create(chargeParams('2'), { idempotencyKey: 'k2' }));
      const retry = await failureOf(t.stripe.paymentIntents.create(chargeParams('2'), { idempotencyKey: 'k2' }));

      expect(first).toBeInstanceOf(Stripe.errors.StripeAPIError);
      expect(first).toMatchObject({ statusCode: 500, rawType: 'api_error' });
      expect(first.headers?.['stripe-should-retry']).toBe('false');
      expect(retry).toMatchObject({ statusCode: 500 });
      expect(retry.headers?.['idempotent-replayed']).toBe('true');
      expect(t.sandbox.charges()).toHaveLength(0);
    });

    it('with stored: false, lets the retry with the same key execute', async () => {
      await injectFault(t.sandbox, { kind: 'error_500', stored: false });

      const first = await failureOf(t.stripe.paymentIntents.create(chargeParams('3'), { idempotencyKey: 'k3' }));
      const retry = await t.stripe.paymentIntents.create(chargeParams('3'), { idempotencyKey: 'k3' });

      expect(first.statusCode).toBe(500);
      expect(retry.status).toBe('succeeded');
      expect(t.sandbox.charges({ orderId: '3' })).toHaveLength(1);
    });
  });

  describe('timeout', () => {
    it('holds the request until the client gives up, creates nothing and frees the key', async () => {
      await injectFault(t.sandbox, { kind: 'timeout' });
      const stripe = stripeFor(t.sandbox, { timeout: 200 });
      const struck = nextSignal(t.sandbox, 'fault-struck');

      const error = await failureOf(stripe.paymentIntents.create(chargeParams('4'), { idempotencyKey: 'k4' }));
      await loggedFor((await struck).requestId);

      expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
      expect(error.message).toMatch(/timeout/);
      expect(t.sandbox.charges()).toHaveLength(0);
      expect(t.sandbox.requests()).toEqual([expect.objectContaining({ fault: 'timeout', status: null })]);
      const retry = await t.stripe.paymentIntents.create(chargeParams('4'), { idempotencyKey: 'k4' });
      expect(retry.lastResponse.headers['idempotent-replayed']).toBeUndefined();
      expect(t.sandbox.charges({ orderId: '4' })).toHaveLength(1);
    });

    it('destroys the connection itself after ms when the client waits longer', async () => {
      await injectFault(t.sandbox, { kind: 'timeout', ms: 100, times: 2 });

      // Twice: stripe-node retries a closed connection once on its own, even with maxNetworkRetries 0.
      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('5'), { idempotencyKey: 'k5' }));

      expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
      expect(t.sandbox.charges()).toHaveLength(0);
    });
  });
});
