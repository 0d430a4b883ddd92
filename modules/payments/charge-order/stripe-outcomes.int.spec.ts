/**
 * How the worker charges and what it records for the answers only real Stripe gives: 3-D Secure
 * required off-session, a payment still processing, an unknown outcome verified with search lagging
 * (the sandbox's default: a minute, as Stripe's search).
 */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { requestedOrder } from '../../../test/harness/requested-order';
import { createSandbox, isSucceededCharge, type Sandbox } from '../../sandbox';
import { loadOrder } from '../load-order';
import { StripePaymentGateway } from '../payment-gateway/stripe.payment-gateway';
import { ChargeOutcomeStillUnknown, ChargeStillProcessing, chargeOrder, type ChargeOrderDeps } from './charge-order.job';
import { MAX_CONSECUTIVE_UNKNOWN } from './charge-order.decision';
import { orderStream } from '../order.events';
import { waitFor } from '../../../test/projections/projection-harness';
import { noOutsidePayments } from '../../../test/harness/outside-payments';

let pool: Pool;
let store: PostgresEventStore;
let sandbox: Sandbox;
const gatewayWith = (paymentMethod?: string) =>
  new StripePaymentGateway({
    secretKey: 'sk_test_idem',
    baseUrl: sandbox.url,
    maxNetworkRetries: 0,
    timeoutMs: 2000,
    ...(paymentMethod && { paymentMethod }),
  });
const depsWith = (paymentMethod?: string): ChargeOrderDeps => ({
  store,
  workerId: 'w1',
  outsidePayments: noOutsidePayments,
  gateway: gatewayWith(paymentMethod),
});

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('stripe_outcomes'), max: 10 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  sandbox = await createSandbox();
  sandbox.createCustomer({ id: 'cus_1' }); // Stripe refuses a charge for a customer it does not hold
});
afterAll(async () => {
  await sandbox.close();
  await pool.end();
});

const requestCharge = () => requestedOrder(store);
const fault = (body: object) =>
  fetch(`${sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const calls = (orderId: string) => sandbox.requests({ orderId }).map((r) => `${r.method} ${r.path}${r.replayed ? ' (replayed)' : ''}`);

describe('chargeOrder against Stripe-shaped answers', () => {
  it('charges the saved card off-session for the customer, as Stripe accepts without a return_url', async () => {
    const orderId = await requestCharge();

    expect(await chargeOrder(depsWith(), orderId)).toBe('settled');

    // The sandbox refuses a confirm without return_url or an exemption: success means off_session was sent.
    const [intent] = sandbox.charges({ orderId });
    expect(intent).toMatchObject({
      status: 'succeeded',
      customer: 'cus_1',
      payment_method: 'pm_card_visa',
      metadata: { order_id: orderId },
    });
    expect(sandbox.requests({ orderId })[0].idempotencyKey).toBe(`idem-order-${orderId}-r1`);
  });

  describe('when the saved card needs 3-D Secure', () => {
    it('records needs-review with the reason and never retries', async () => {
      const orderId = await requestCharge();
      const deps = depsWith('pm_card_authenticationRequired');

      expect(await chargeOrder(deps, orderId)).toBe('settled');
      expect(await chargeOrder(deps, orderId)).toBe('nothing_to_do');

      expect((await loadOrder(store, orderId)).state).toMatchObject({
        status: 'needs_review',
        lastError: expect.stringContaining('authentication_required'),
      });
      expect(calls(orderId)).toEqual(['POST /v1/payment_intents']);
    });
  });

  describe('when the payment is processing', () => {
    it('records it as not known yet, then reads the intent by id and records the settled charge', async () => {
      const orderId = await requestCharge();
      const deps = depsWith('pm_successDelayed_de');

      await expect(chargeOrder(deps, orderId)).rejects.toBeInstanceOf(ChargeStillProcessing);
      expect((await loadOrder(store, orderId)).state).toMatchObject({
        status: 'processing',
        consecutiveUnknown: 0,
        lastError: expect.stringContaining('processing'),
      });
      sandbox.settle(sandbox.charges({ orderId })[0].id, 'succeeded');
      expect(await chargeOrder(deps, orderId)).toBe('settled');

      expect((await loadOrder(store, orderId)).state).toMatchObject({ status: 'paid', recovered: true });
      // A replay of the create would answer "processing" as first stored: the intent is read by id instead.
      expect(calls(orderId)).toEqual(['POST /v1/payment_intents', 'GET /v1/payment_intents/' + sandbox.charges({ orderId })[0].id]);
      expect(sandbox.charges({ orderId })).toHaveLength(1);
    });
  });

  describe('when the answer was lost and search lags (a minute, as at Stripe)', () => {
    it('learns the outcome by replaying the create with the persisted key, without searching', async () => {
      const orderId = await requestCharge();
      await fault({ kind: 'drop_after_commit', orderId, times: 2 });
      await expect(chargeOrder(depsWith(), orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);

      expect(await chargeOrder(depsWith(), orderId)).toBe('settled');

      expect((await loadOrder(store, orderId)).state).toMatchObject({ status: 'paid', recovered: true });
      expect(calls(orderId).filter((call) => call.includes('search'))).toEqual([]);
      expect(sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
    });
  });

  describe("when the key's first request is still running at the provider", () => {
    it('records no outcome for its 409 key-in-use answers, never counts them towards review, and records the charge once it ends', async () => {
      const orderId = await requestCharge();
      // The first create is held 5 s before it commits; this client gives up after 2 s.
      await fault({ kind: 'latency', orderId, ms: 5000, times: 1 });
      // Recovery that will not wait for the attempt's lease (a sweep run with `idem recover --older-than 0s`).
      const eager = { ...depsWith(), attemptLeaseMs: 0 };
      await expect(chargeOrder(eager, orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
      expect((await loadOrder(store, orderId)).state).toMatchObject({ status: 'unknown', consecutiveUnknown: 1 });

      // Five more tries while the first still runs: five 409s, none of them an outcome.
      for (let i = 0; i < MAX_CONSECUTIVE_UNKNOWN; i++) {
        await expect(chargeOrder(eager, orderId)).rejects.toThrow(/idempotency_key_in_use/);
      }
      expect(sandbox.requests({ orderId }).filter((r) => r.status === 409)).toHaveLength(MAX_CONSECUTIVE_UNKNOWN);
      const history = (await store.readStream(orderStream(orderId))).map((e) => e.type);
      expect(history.filter((type) => type === 'ChargeOutcomeUnknown')).toHaveLength(1);
      expect(history).not.toContain('ChargeNeedsReview');

      await waitFor('the held create to commit', async () => sandbox.charges({ orderId }).some(isSucceededCharge), 15_000);
      expect(await chargeOrder(eager, orderId)).toBe('settled');
      expect((await loadOrder(store, orderId)).state).toMatchObject({ status: 'paid', recovered: true });
      expect(sandbox.charges({ orderId })).toHaveLength(1);
    });
  });

  describe('when the provider refuses the API key (401; a restricted key without the permission: 403)', () => {
    // Found black-box: a worker started with a key the provider refuses recorded five unknown outcomes,
    // retried, then sent the order to review as "5 consecutive unknown outcomes", the cause hidden.
    const refusedKey = (paymentMethod: string | null) => ({
      store,
      workerId: 'w1',
      outsidePayments: noOutsidePayments,
      gateway: new StripePaymentGateway({ secretKey: 'rk_test_no_such_key', baseUrl: sandbox.url, maxNetworkRetries: 0, paymentMethod }),
    });

    it('sends the order to review at once, naming the refused key, with no unknown outcome and no charge', async () => {
      const orderId = await requestCharge();

      expect(await chargeOrder(refusedKey('pm_card_visa'), orderId)).toBe('settled');

      const history = await store.readStream(orderStream(orderId));
      expect(history.map((e) => e.type)).toEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeNeedsReview']);
      expect(history.at(-1)?.data.reason).toMatch(/authentication_error \(HTTP 401\): the provider refused Idem's API key/);
      expect(sandbox.charges({ orderId })).toEqual([]);
    });

    it("does the same when the customer's saved card is looked up, before anything is sent", async () => {
      const orderId = await requestCharge();

      expect(await chargeOrder(refusedKey(null), orderId)).toBe('settled');

      const history = await store.readStream(orderStream(orderId));
      expect(history.map((e) => e.type)).toEqual(['ChargeRequested', 'ChargeNeedsReview']);
      expect(history.at(-1)?.data.reason).toMatch(/authentication_error \(HTTP 401\)/);
      expect(sandbox.requests({ orderId })).toEqual([]);
    });
  });
});
