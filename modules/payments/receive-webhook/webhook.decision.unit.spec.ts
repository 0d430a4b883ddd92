import type { OrderEvent } from '../order.events';
import { evolveOrder, initialOrderState, type OrderState } from '../order.state';
import type { ProviderPayment } from '../payment-gateway/payment-gateway.port';
import { decideWebhook, secondChargeOfPaidOrder } from './webhook.decision';

const orderId = '481';
const key = (request: number) => `idem-order-${orderId}-r${request}`;
const requested = (request: number): OrderEvent => ({
  type: 'ChargeRequested',
  data: {
    orderId,
    amount: 4200,
    currency: 'EUR',
    customerId: 'c1',
    requestFingerprint: 'f',
    providerKey: key(request),
    requestNumber: request,
  },
});
const started = (request: number): OrderEvent => ({
  type: 'ChargeAttemptStarted',
  data: { orderId, attempt: 1, workerId: 'w', providerKey: key(request) },
});
const fold = (...events: OrderEvent[]): OrderState => events.reduce(evolveOrder, initialOrderState());

const states = {
  pending: fold(requested(1)),
  processing: fold(requested(1), started(1)),
  unknown: fold(requested(1), started(1), { type: 'ChargeOutcomeUnknown', data: { orderId, attempt: 1, error: 'timeout' } }),
  paid: fold(requested(1), started(1), {
    type: 'ChargeSucceeded',
    data: { orderId, paymentIntentId: 'pi_ours', amount: 4200, currency: 'EUR', recovered: false },
  }),
  failed: fold(requested(1), started(1), {
    type: 'ChargeFailed',
    data: { orderId, attempt: 1, declineCode: 'generic_decline', reason: 'declined' },
  }),
  needs_review: fold(requested(1), started(1), { type: 'ChargeNeedsReview', data: { orderId, reason: '5 consecutive unknown outcomes' } }),
};

const succeeded = (overrides: Partial<ProviderPayment> = {}): ProviderPayment => ({
  paymentIntentId: 'pi_x',
  chargeId: 'ch_x',
  status: 'succeeded',
  amount: 4200,
  currency: 'EUR',
  orderId,
  providerKey: key(1),
  ...overrides,
});
const declined = (overrides: Partial<ProviderPayment> = {}): ProviderPayment => ({
  paymentIntentId: 'pi_d',
  status: 'failed',
  amount: 4200,
  currency: 'EUR',
  orderId,
  providerKey: key(1),
  declineCode: 'generic_decline',
  ...overrides,
});

describe('decideWebhook', () => {
  describe('when a payment succeeded under the order id and its current provider key', () => {
    it.each(['pending', 'processing', 'unknown'] as const)('records the charge as recovered on a %s order', (status) => {
      expect(decideWebhook(states[status], succeeded())).toEqual({
        type: 'ChargeSucceeded',
        data: { orderId, paymentIntentId: 'pi_x', providerChargeId: 'ch_x', amount: 4200, currency: 'EUR', recovered: true },
      });
    });
  });

  describe('when a payment succeeded that Idem did not ask for', () => {
    it.each(['pending', 'processing', 'unknown'] as const)(
      'hands a charge made outside Idem (no provider key) on a %s order to review',
      (status) => {
        const event = decideWebhook(states[status], succeeded({ providerKey: undefined }));
        expect(event).toMatchObject({ type: 'ChargeNeedsReview', data: { orderId, reason: expect.stringContaining('outside Idem') } });
      },
    );

    it('hands a charge under another key to review, never marking the order paid under it', () => {
      const event = decideWebhook(states.processing, succeeded({ providerKey: 'someone-elses-key' }));
      expect(event).toMatchObject({ type: 'ChargeNeedsReview', data: { reason: expect.stringContaining('under key someone-elses-key') } });
    });

    it('hands a charge for another order id to review', () => {
      expect(decideWebhook(states.processing, succeeded({ orderId: '482' }))).toMatchObject({ type: 'ChargeNeedsReview' });
    });

    it("hands a late success under the earlier request's key to review once a review resolved the order as failed and a new request began", () => {
      const resolvedFailedThenRequestedAgain = fold(
        requested(1),
        started(1),
        { type: 'ChargeNeedsReview', data: { orderId, reason: 'contradictory provider data' } },
        { type: 'ChargeReviewResolved', data: { orderId, actor: 'support', note: 'no charge found', resolution: 'failed' } },
        requested(2),
        started(2),
      );
      const event = decideWebhook(resolvedFailedThenRequestedAgain, succeeded({ providerKey: key(1) }));
      expect(event).toMatchObject({
        type: 'ChargeNeedsReview',
        data: { reason: expect.stringContaining(`current request uses key ${key(2)}`) },
      });
    });

    it('hands a success on an order recorded as failed to review', () => {
      expect(decideWebhook(states.failed, succeeded())).toMatchObject({
        type: 'ChargeNeedsReview',
        data: { reason: expect.stringContaining('recorded as failed') },
      });
    });

    it('hands a success with another amount to review', () => {
      expect(decideWebhook(states.unknown, succeeded({ amount: 999 }))).toMatchObject({
        type: 'ChargeNeedsReview',
        data: { reason: expect.stringContaining('999 EUR') },
      });
    });

    it("hands another customer's payment to review, even under the order's id, key, amount and currency", () => {
      expect(decideWebhook(states.unknown, succeeded({ customerId: 'c2' }))).toStrictEqual({
        type: 'ChargeNeedsReview',
        data: { orderId, reason: "provider payment pi_x is customer c2's, the order is customer c1's", paymentIntentId: 'pi_x' },
      });
      expect(decideWebhook(states.unknown, succeeded({ customerId: 'c1' }))).toMatchObject({ type: 'ChargeSucceeded' });
    });
  });

  describe('when a decline under the current key arrives', () => {
    it.each(['processing', 'unknown'] as const)('records ChargeFailed on a %s order', (status) => {
      expect(decideWebhook(states[status], declined())).toMatchObject({
        type: 'ChargeFailed',
        data: { orderId, declineCode: 'generic_decline', paymentIntentId: 'pi_d' },
      });
    });

    it.each(['failed', 'paid', 'needs_review'] as const)('appends nothing to an order already %s (forward only)', (status) => {
      expect(decideWebhook(states[status], declined())).toBeUndefined();
    });
  });

  it('ignores a decline under an earlier key', () => {
    expect(decideWebhook(states.processing, declined({ providerKey: 'an-older-key' }))).toBeUndefined();
  });

  it('records a decline without a decline code as card_declined, saying it came from the webhook', () => {
    expect(decideWebhook(states.unknown, declined({ declineCode: undefined }))).toStrictEqual({
      type: 'ChargeFailed',
      data: { orderId, attempt: 1, declineCode: 'card_declined', reason: 'declined (provider webhook)', paymentIntentId: 'pi_d' },
    });
  });

  it('ignores a decline on an order whose charge no worker has attempted yet', () => {
    expect(decideWebhook(states.pending, declined())).toBeUndefined();
  });

  it('ignores a payment that is still pending at the provider', () => {
    expect(decideWebhook(states.processing, declined({ status: 'pending' }))).toBeUndefined();
  });

  it('ignores any webhook for an order it does not know', () => {
    expect(decideWebhook(initialOrderState(), succeeded())).toBeUndefined();
  });

  describe('when a success arrives for an order already settled', () => {
    it('names a payment on an order in review once, so the person deciding sees it (and the check before a resolution finds it)', () => {
      const named = decideWebhook(states.needs_review, succeeded());
      expect(named).toStrictEqual({
        type: 'ChargeNeedsReview',
        data: {
          orderId,
          reason: `provider reports payment pi_x succeeded under key ${key(1)} while the order waits for review`,
          paymentIntentId: 'pi_x',
        },
      });
      expect(decideWebhook(evolveOrder(states.needs_review, named!), succeeded())).toBeUndefined();
    });
    // A paid order: see 'a succeeded payment of a paid order' below.
  });

  it('names the order id and the key it saw when it hands a foreign charge to review', () => {
    expect(decideWebhook(states.processing, succeeded({ orderId: undefined, providerKey: undefined }))).toStrictEqual({
      type: 'ChargeNeedsReview',
      data: {
        orderId,
        reason: `provider reports payment pi_x for order (none) succeeded without an Idem provider key (a charge made outside Idem); the order's current request uses key ${key(1)}`,
        paymentIntentId: 'pi_x',
      },
    });
  });

  it('hands a success in another currency to review with both amounts', () => {
    expect(decideWebhook(states.unknown, succeeded({ currency: 'USD' }))).toStrictEqual({
      type: 'ChargeNeedsReview',
      data: { orderId, reason: 'provider payment pi_x is 4200 USD, the order is 4200 EUR', paymentIntentId: 'pi_x' },
    });
  });
});

describe('a succeeded payment of a paid order', () => {
  it('sends the order to review when it is another payment than the one that paid it', () => {
    expect(decideWebhook(states.paid, succeeded({ paymentIntentId: 'pi_second' }))).toStrictEqual({
      type: 'ChargeNeedsReview',
      data: {
        orderId,
        reason: 'provider reports a second succeeded payment pi_second for order 481, already paid by pi_ours: refund one',
        paymentIntentId: 'pi_second',
      },
    });
  });

  it('changes nothing when it is the payment that paid it (a redelivery)', () => {
    expect(decideWebhook(states.paid, succeeded({ paymentIntentId: 'pi_ours' }))).toBeUndefined();
  });

  it("changes nothing for an order resolved as paid by support (no intent recorded) when it is the order's own key's payment", () => {
    const resolvedPaid = { ...states.paid, paymentIntentId: undefined };
    expect(decideWebhook(resolvedPaid, succeeded({ paymentIntentId: 'pi_late' }))).toBeUndefined();
    expect(decideWebhook(resolvedPaid, succeeded({ paymentIntentId: 'pi_other', providerKey: 'another-key' }))).toMatchObject({
      type: 'ChargeNeedsReview',
    });
  });
});

describe('secondChargeOfPaidOrder', () => {
  it('names a succeeded payment under another intent than the one that paid the order', () => {
    expect(secondChargeOfPaidOrder(states.paid, succeeded({ paymentIntentId: 'pi_second' }))).toBe(
      'provider reports a second succeeded payment pi_second for order 481, already paid by pi_ours: refund one',
    );
  });

  it('says nothing of the payment that paid the order (a redelivery)', () => {
    expect(secondChargeOfPaidOrder(states.paid, succeeded({ paymentIntentId: 'pi_ours' }))).toBeUndefined();
  });

  it('says nothing of a decline, nor of an order that is not paid', () => {
    expect(secondChargeOfPaidOrder(states.paid, declined())).toBeUndefined();
    for (const status of ['pending', 'processing', 'unknown', 'failed', 'needs_review'] as const) {
      expect(secondChargeOfPaidOrder(states[status], succeeded({ paymentIntentId: 'pi_second' }))).toBeUndefined();
    }
  });
});
