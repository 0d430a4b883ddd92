import type { EventStore, RecordedEvent } from '../../../src/event-store/event-store.port';
import type { PaymentGateway, ProviderPayment } from '../payment-gateway/payment-gateway.port';
import { IN_FLIGHT_MARGIN_MS, checkProviderForOrder } from './provider-check';

const HOUR = 3600_000;
const t0 = Date.UTC(2026, 0, 10, 12);
let revision = 0;
const event = (type: string, data: Record<string, unknown>, at: number): RecordedEvent =>
  ({
    id: `e${revision}`,
    stream: 'order-o1',
    revision: revision++,
    position: '0/0',
    type,
    data,
    metadata: { recordedAt: new Date(at).toISOString() },
    created: new Date(at),
  }) as unknown as RecordedEvent;
const request = (n: number, at: number, customerId = 'cus_1') =>
  event(
    'ChargeRequested',
    { orderId: 'o1', amount: 4200, currency: 'EUR', customerId, providerKey: `k${n}`, requestNumber: n, requestFingerprint: 'f' },
    at,
  );
const attempt = (n: number, at: number) =>
  event('ChargeAttemptStarted', { orderId: 'o1', attempt: 1, workerId: 'w', providerKey: `k${n}` }, at);
const payment = (id: string, key: string, status: ProviderPayment['status'], orderId = 'o1'): ProviderPayment => ({
  paymentIntentId: id,
  status,
  amount: 4200,
  currency: 'EUR',
  orderId,
  providerKey: key,
});
const storeOf = (history: RecordedEvent[]) => ({ readStream: async () => history }) as unknown as EventStore;

/**
 * The provider as the check may ask it: a create would throw, so a check that charges fails its test.
 * `searched` is what search shows for the order (it lags: by default nothing yet).
 */
function providerHolding(
  byCustomer: Record<string, ProviderPayment[]>,
  byId: Record<string, ProviderPayment> = {},
  searched: ProviderPayment[] = [],
) {
  const listed: Array<{ customerId: string; since: Date }> = [];
  const gateway: PaymentGateway = {
    charge: async () => {
      throw new Error('the check sent a create');
    },
    findPayments: async () => searched,
    retrievePayment: async (id) => byId[id],
    listPayments: async (customerId, since) => (listed.push({ customerId, since }), byCustomer[customerId] ?? []),
    savedPaymentMethod: async () => ({ kind: 'found', paymentMethodId: 'pm_card_visa' }),
  };
  return { gateway, listed };
}

/** What the check answers for `history` at `at`, the provider holding no payment. */
const checkedWithNothingHeld = (history: RecordedEvent[], at: number) =>
  checkProviderForOrder(providerHolding({}).gateway, storeOf(history), 'o1', new Date(at));
const NOTHING_HELD = { succeeded: [], pending: [], unanswered: [] };

describe('checkProviderForOrder', () => {
  it("lists each customer's payments since before the first attempt, keeps the order's own, and never sends a create", async () => {
    const history = [request(1, t0), attempt(1, t0), request(2, t0 + 30 * HOUR, 'cus_2'), attempt(2, t0 + 30 * HOUR)];
    const { gateway, listed } = providerHolding({
      cus_1: [payment('pi_k1', 'k1', 'failed'), payment('pi_other_order', 'x', 'succeeded', 'o2')],
      cus_2: [payment('pi_k2', 'k2', 'succeeded')],
    });

    const check = await checkProviderForOrder(gateway, storeOf(history), 'o1', new Date(t0 + 31 * HOUR));

    expect(check).toEqual({
      succeeded: ['pi_k2'],
      // What a resolution as paid records: the payment as the provider shows it.
      succeededPayments: [expect.objectContaining({ paymentIntentId: 'pi_k2', amount: 4200, currency: 'EUR', orderId: 'o1' })],
      pending: [],
      unanswered: [],
    });
    expect(listed.map((l) => l.customerId).sort()).toEqual(['cus_1', 'cus_2']);
    expect(listed.every((l) => l.since.getTime() < t0)).toBe(true);
  });

  it('finds by id an intent the order recorded that the list does not show', async () => {
    const history = [
      request(1, t0),
      attempt(1, t0),
      event('ChargeOutcomeUnknown', { orderId: 'o1', attempt: 1, error: 'timeout', paymentIntentId: 'pi_pending' }, t0),
    ];
    const { gateway } = providerHolding({}, { pi_pending: payment('pi_pending', 'k1', 'pending') });

    const check = await checkProviderForOrder(gateway, storeOf(history), 'o1', new Date(t0 + HOUR));

    expect(check).toEqual({ succeeded: [], pending: ['pi_pending'], unanswered: [] });
  });

  describe('when the provider shows no payment under a key', () => {
    const history = [request(1, t0), attempt(1, t0), attempt(1, t0 + 10 * 60_000)];

    it('leaves the key unanswered while a request under it may still be executing there', async () => {
      const { gateway } = providerHolding({});
      const justAfterLastAttempt = new Date(t0 + 10 * 60_000 + IN_FLIGHT_MARGIN_MS - 1);

      expect(await checkProviderForOrder(gateway, storeOf(history), 'o1', justAfterLastAttempt)).toEqual({
        succeeded: [],
        pending: [],
        unanswered: ['k1'],
        retryAfterSeconds: 1,
      });
      const rightAfter = new Date(t0 + 10 * 60_000 + 1000);
      expect((await checkProviderForOrder(gateway, storeOf(history), 'o1', rightAfter)).retryAfterSeconds).toBe(
        IN_FLIGHT_MARGIN_MS / 1000 - 1,
      );
    });

    it('answers that nothing happened under it once its last attempt is older than the margin', async () => {
      const { gateway } = providerHolding({});
      const afterTheMargin = new Date(t0 + 10 * 60_000 + IN_FLIGHT_MARGIN_MS + 1);

      expect(await checkProviderForOrder(gateway, storeOf(history), 'o1', afterTheMargin)).toEqual({
        succeeded: [],
        pending: [],
        unanswered: [],
      });
    });
  });

  describe('when the provider answered the last attempt under a key and shows no payment under it', () => {
    // The worker's record of a request Stripe refused at validation (400): it ran nothing.
    const rejected = (at: number) =>
      event(
        'ChargeNeedsReview',
        { orderId: 'o1', reason: 'provider rejected the request: parameter_invalid_integer: Invalid integer', providerAnswered: true },
        at,
      );

    it('answers that nothing happened under it at once: no request under the key can still be executing', async () => {
      const history = [request(1, t0), attempt(1, t0), rejected(t0 + 1000)];

      expect(await checkedWithNothingHeld(history, t0 + 2000)).toEqual(NOTHING_HELD);
    });

    it('still waits for an earlier attempt under the key that got no answer (it may still be executing)', async () => {
      const { gateway } = providerHolding({});
      const timedOut = event('ChargeOutcomeUnknown', { orderId: 'o1', attempt: 1, error: 'timeout' }, t0 + 10_000);
      const history = [request(1, t0), attempt(1, t0), timedOut, attempt(1, t0 + 60_000), rejected(t0 + 61_000)];

      expect(await checkProviderForOrder(gateway, storeOf(history), 'o1', new Date(t0 + 120_000))).toEqual({
        succeeded: [],
        pending: [],
        unanswered: ['k1'],
        retryAfterSeconds: IN_FLIGHT_MARGIN_MS / 1000 - 120,
      });
    });

    it('waits as before when the review after the attempt names no answer (a review recorded before answers were)', async () => {
      const { gateway } = providerHolding({});
      const older = event('ChargeNeedsReview', { orderId: 'o1', reason: 'provider rejected the request: x' }, t0 + 1000);
      const history = [request(1, t0), attempt(1, t0), older];

      expect((await checkProviderForOrder(gateway, storeOf(history), 'o1', new Date(t0 + 2000))).unanswered).toEqual(['k1']);
    });
  });

  describe('when the provider ran none of the last attempt under a key (not sent: unreachable, or rate limited)', () => {
    const notSent = (at: number, error: string) => event('ChargeOutcomeUnknown', { orderId: 'o1', attempt: 1, error, notSent: true }, at);

    it.each([
      ['refused', 'StripeConnectionError: connect ECONNREFUSED (ECONNREFUSED)'],
      ['rate limited', 'StripeRateLimitError: Too many requests'],
    ])('answers that nothing happened under it at once (%s): no request under the key can be executing', async (_how, error) => {
      const history = [request(1, t0), attempt(1, t0), notSent(t0 + 1000, error)];

      expect(await checkedWithNothingHeld(history, t0 + 2000)).toEqual(NOTHING_HELD);
    });

    it('still waits for an earlier attempt under the key that was sent and got no answer', async () => {
      const timedOut = event('ChargeOutcomeUnknown', { orderId: 'o1', attempt: 1, error: 'timeout' }, t0 + 10_000);
      const history = [request(1, t0), attempt(1, t0), timedOut, attempt(1, t0 + 60_000), notSent(t0 + 61_000, 'ECONNREFUSED')];

      expect((await checkedWithNothingHeld(history, t0 + 120_000)).unanswered).toEqual(['k1']);
    });
  });

  it('leaves every key unanswered when the provider does not answer (a timeout, a 5xx), instead of failing', async () => {
    const { gateway } = providerHolding({});
    const unreachable = { ...gateway, listPayments: () => Promise.reject(new Error('ETIMEDOUT')) };
    const history = [request(1, t0), attempt(1, t0), request(2, t0 + HOUR), attempt(2, t0 + HOUR)];

    expect(await checkProviderForOrder(unreachable, storeOf(history), 'o1', new Date(t0 + 48 * HOUR))).toEqual({
      succeeded: [],
      pending: [],
      unanswered: ['k1', 'k2'],
      retryAfterSeconds: 30,
    });
  });

  it("lists the customer's payments even when no attempt was made: a payment made outside Idem for the order counts", async () => {
    const { gateway, listed } = providerHolding({ cus_1: [payment('pi_outside', 'none', 'succeeded')] });

    expect(await checkProviderForOrder(gateway, storeOf([request(1, t0)]), 'o1', new Date(t0))).toEqual({
      succeeded: ['pi_outside'],
      succeededPayments: [payment('pi_outside', 'none', 'succeeded')],
      pending: [],
      unanswered: [],
    });
    expect(listed).toEqual([{ customerId: 'cus_1', since: new Date(t0 - HOUR) }]);
  });

  it('answers nothing held for an order without attempts when the provider shows nothing (no key of it was ever sent)', async () => {
    const { gateway } = providerHolding({});

    expect(await checkProviderForOrder(gateway, storeOf([request(1, t0)]), 'o1', new Date(t0))).toEqual({
      succeeded: [],
      pending: [],
      unanswered: [],
    });
  });

  it('retrieves a payment a review named (its webhook reported it), and cannot answer while the provider is down', async () => {
    const review = event('ChargeNeedsReview', { orderId: 'o1', reason: 'payment taken in review', paymentIntentId: 'pi_named' }, t0);
    const { gateway } = providerHolding({}, { pi_named: payment('pi_named', 'none', 'succeeded') });
    expect(await checkProviderForOrder(gateway, storeOf([request(1, t0), review]), 'o1', new Date(t0))).toMatchObject({
      succeeded: ['pi_named'],
    });

    const down = { ...gateway, listPayments: async () => Promise.reject(new Error('ETIMEDOUT')) };
    expect(await checkProviderForOrder(down, storeOf([request(1, t0), review]), 'o1', new Date(t0))).toMatchObject({
      succeeded: [],
      unanswered: ['k1'],
    });
  });

  describe('when a payment for the order was made outside Idem without a customer and its webhook never came', () => {
    const outside = { ...payment('pi_outside', 'none', 'succeeded'), providerKey: undefined };

    it('finds it by search (no customer list holds it) and counts it as it stands now', async () => {
      const shownPending = { ...outside, status: 'pending' as const };
      const { gateway } = providerHolding({}, { pi_outside: outside }, [shownPending, payment('pi_elsewhere', 'x', 'succeeded', 'o10')]);

      expect(await checkProviderForOrder(gateway, storeOf([request(1, t0), attempt(1, t0)]), 'o1', new Date(t0 + HOUR))).toEqual({
        succeeded: ['pi_outside'],
        succeededPayments: [outside],
        pending: [],
        unanswered: [],
      });
    });

    it('cannot answer while search does not answer', async () => {
      const { gateway } = providerHolding({});
      const searchDown = { ...gateway, findPayments: () => Promise.reject(new Error('ETIMEDOUT')) };

      expect(await checkProviderForOrder(searchDown, storeOf([request(1, t0)]), 'o1', new Date(t0))).toMatchObject({
        succeeded: [],
        unanswered: ['k1'],
      });
    });
  });
});
