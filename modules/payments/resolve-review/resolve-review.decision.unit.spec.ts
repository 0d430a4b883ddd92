import { deciderSpec } from '../../../test/harness/decider-spec';
import type { OrderEvent } from '../order.events';
import type { ProviderPayment } from '../payment-gateway/payment-gateway.port';
import type { ProviderCheck } from './provider-check';
import { orderCommands } from '../order.commands';
import { decideResolveReview, type ResolveReview } from './resolve-review.decision';

const spec = deciderSpec(orderCommands, decideResolveReview);
const orderId = '481';
const requested: OrderEvent = {
  type: 'ChargeRequested',
  data: {
    orderId,
    amount: 4200,
    currency: 'EUR',
    customerId: 'c1',
    requestFingerprint: 'f',
    providerKey: 'idem-order-481-r1',
    requestNumber: 1,
  },
};
const started: OrderEvent = {
  type: 'ChargeAttemptStarted',
  data: { orderId, attempt: 1, workerId: 'w', providerKey: 'idem-order-481-r1' },
};
const unknown: OrderEvent = { type: 'ChargeOutcomeUnknown', data: { orderId, attempt: 1, error: 'timeout' } };
const inReview: OrderEvent[] = [
  requested,
  started,
  unknown,
  { type: 'ChargeNeedsReview', data: { orderId, reason: 'contradictory provider data' } },
];

const nothingHeld: ProviderCheck = { succeeded: [], pending: [], unanswered: [] };
const payment = (paymentIntentId: string, amount = 4200): ProviderPayment => ({
  paymentIntentId,
  chargeId: `ch_${paymentIntentId}`,
  status: 'succeeded',
  amount,
  currency: 'EUR',
  orderId,
});
const held = (...payments: ProviderPayment[]): ProviderCheck => ({
  succeeded: payments.map((p) => p.paymentIntentId),
  succeededPayments: payments,
  pending: [],
  unanswered: [],
});
const resolve = (resolution: 'paid' | 'failed', providerCheck?: ProviderCheck): ResolveReview => ({
  orderId,
  actor: 'support:t1',
  note: 'checked the dashboard',
  resolution,
  requestId: 'req-9',
  ...(providerCheck ? { providerCheck } : {}),
});
const resolved = (resolution: 'paid' | 'failed', paid?: ProviderPayment): OrderEvent => ({
  type: 'ChargeReviewResolved',
  data: {
    orderId,
    actor: 'support:t1',
    note: 'checked the dashboard',
    resolution,
    ...(paid
      ? {
          payment: { paymentIntentId: paid.paymentIntentId, providerChargeId: paid.chargeId, amount: paid.amount, currency: paid.currency },
        }
      : {}),
  },
});

describe('ResolveReview', () => {
  describe('when the order waits for review', () => {
    it('records a resolution as paid with the actor, the note and the payment the provider holds', () => {
      spec
        .given(inReview)
        .when(resolve('paid', held(payment('pi_1'))))
        .then([resolved('paid', payment('pi_1'))]);
    });

    it("records the order's own payment when the provider holds it among others (a double charge)", () => {
      const history: OrderEvent[] = [
        requested,
        started,
        { type: 'ChargeSucceeded', data: { orderId, paymentIntentId: 'pi_own', amount: 4200, currency: 'EUR', recovered: false } },
        { type: 'ChargeNeedsReview', data: { orderId, reason: 'a second succeeded payment pi_other' } },
      ];
      spec
        .given(history)
        .when(resolve('paid', held(payment('pi_other'), payment('pi_own'))))
        .then([resolved('paid', payment('pi_own'))]);
    });

    it('records a resolution as failed once the provider holds nothing under any key', () => {
      spec
        .given(inReview)
        .when(resolve('failed', nothingHeld))
        .then([resolved('failed')]);
    });

    it('names the step with the request, the attempt, the unknowns in a row and the request id', () => {
      const [decided] = spec
        .given(inReview)
        .when(resolve('paid', held(payment('pi_1'))))
        .decided();
      expect(decided.key).toBe('review-resolved/r1/1/1/req-9');
    });
  });

  describe('when it is to be resolved as failed but money may have moved', () => {
    it('refuses while the provider holds a succeeded payment', () => {
      spec
        .given(inReview)
        .when(resolve('failed', { succeeded: ['pi_1'], pending: ['pi_2'], unanswered: [] }))
        .thenRefuses('ORDER.PROVIDER_HOLDS_CHARGE', {
          kind: 'unprocessable',
          message: 'The provider holds a succeeded payment for order 481 (pi_1, pi_2): it cannot be resolved as failed',
          details: { succeeded: ['pi_1'], pending: ['pi_2'] },
        });
    });

    it('refuses while the provider holds a succeeded payment alone', () => {
      spec
        .given(inReview)
        .when(resolve('failed', { succeeded: ['pi_1'], pending: [], unanswered: [] }))
        .thenRefuses('ORDER.PROVIDER_HOLDS_CHARGE', { details: { succeeded: ['pi_1'], pending: [] } });
    });

    it('refuses while a payment is still pending', () => {
      spec
        .given(inReview)
        .when(resolve('failed', { succeeded: [], pending: ['pi_2'], unanswered: [] }))
        .thenRefuses('ORDER.PROVIDER_HOLDS_CHARGE', {
          message: 'The provider holds a pending payment for order 481 (pi_2): it cannot be resolved as failed',
        });
    });

    it('refuses (try later) while a key could not be answered', () => {
      spec
        .given(inReview)
        .when(resolve('failed', { succeeded: [], pending: [], unanswered: ['idem-order-481-r1', 'idem-order-481-r2'] }))
        .thenRefuses('ORDER.PROVIDER_UNVERIFIED', {
          kind: 'unavailable',
          message: 'The provider could not confirm the outcome under idem-order-481-r1, idem-order-481-r2; try again later',
          details: { keys: ['idem-order-481-r1', 'idem-order-481-r2'] },
        });
    });

    it('asks to try again when no provider check came with the command (the order entered review meanwhile)', () => {
      spec.given(inReview).when(resolve('failed')).thenRefuses('ORDER.PROVIDER_CHECK_STALE', {
        kind: 'conflict',
        message: 'Order 481 changed while it was being checked; try again',
      });
    });
  });

  describe('when it is to be resolved as paid but the provider holds no payment that took the money', () => {
    it("refuses when the provider shows none for the order (DESIGN.md §9.3: local state equals the provider's)", () => {
      spec.given(inReview).when(resolve('paid', nothingHeld)).thenRefuses('ORDER.PROVIDER_HOLDS_NO_CHARGE', {
        kind: 'unprocessable',
        message: 'The provider holds no succeeded payment for order 481: it cannot be resolved as paid',
      });
    });

    it('refuses while its payment is still processing', () => {
      spec
        .given(inReview)
        .when(resolve('paid', { succeeded: [], pending: ['pi_2'], unanswered: [] }))
        .thenRefuses('ORDER.PROVIDER_PAYMENT_PENDING', { kind: 'unprocessable', details: { pending: ['pi_2'] } });
    });

    it('refuses (try later) while a key could not be answered', () => {
      spec
        .given(inReview)
        .when(resolve('paid', { succeeded: [], pending: [], unanswered: ['idem-order-481-r1'], retryAfterSeconds: 120 }))
        .thenRefuses('ORDER.PROVIDER_UNVERIFIED', {
          kind: 'unavailable',
          details: { keys: ['idem-order-481-r1'], retryAfterSeconds: 120 },
        });
    });

    it('asks to try again when no provider check came with the command', () => {
      spec.given(inReview).when(resolve('paid')).thenRefuses('ORDER.PROVIDER_CHECK_STALE', { kind: 'conflict' });
    });
  });

  describe('when it is to be resolved as paid and the provider holds a payment of another amount', () => {
    it('refuses it, naming the amount ordered and the amount paid, unless that amount is accepted', () => {
      spec
        .given(inReview)
        .when(resolve('paid', held(payment('pi_short', 999))))
        .thenRefuses('ORDER.PAYMENT_AMOUNT_MISMATCH', {
          kind: 'unprocessable',
          message: expect.stringMatching(/pi_short.*999 EUR.*4200 EUR/),
          details: { ordered: { amount: 4200, currency: 'EUR' }, paid: { paymentIntentId: 'pi_short', amount: 999, currency: 'EUR' } },
        });
    });

    it('refuses an accepted amount that is not the one the provider holds', () => {
      spec
        .given(inReview)
        .when({ ...resolve('paid', held(payment('pi_short', 999))), acceptedAmount: 998 })
        .thenRefuses('ORDER.PAYMENT_AMOUNT_MISMATCH', { details: { acceptedAmount: 998 } });
    });

    it('records the payment and the amount ordered when the resolution accepts the amount paid', () => {
      spec
        .given(inReview)
        .when({ ...resolve('paid', held(payment('pi_short', 999))), acceptedAmount: 999 })
        .then([
          {
            ...resolved('paid', payment('pi_short', 999)),
            data: { ...resolved('paid', payment('pi_short', 999)).data, orderedAmount: 4200 },
          } as OrderEvent,
        ]);
    });

    it('takes a payment of the amount ordered over one of another amount', () => {
      spec
        .given(inReview)
        .when(resolve('paid', held(payment('pi_short', 999), payment('pi_full'))))
        .then([resolved('paid', payment('pi_full'))]);
    });

    it('takes, of two payments of other amounts, the one whose amount the resolution accepts', () => {
      spec
        .given(inReview)
        .when({ ...resolve('paid', held(payment('pi_more', 4300), payment('pi_short', 999))), acceptedAmount: 999 })
        .then([
          {
            ...resolved('paid', payment('pi_short', 999)),
            data: { ...resolved('paid', payment('pi_short', 999)).data, orderedAmount: 4200 },
          } as OrderEvent,
        ]);
    });

    it('refuses an accepted amount with the resolution "failed" as bad input', () => {
      spec
        .given(inReview)
        .when({ ...resolve('failed', nothingHeld), acceptedAmount: 999 })
        .thenRefuses('REQUEST.INVALID', { kind: 'validation' });
    });

    it('refuses a payment in another currency, which no accepted amount can stand for', () => {
      spec
        .given(inReview)
        .when({ ...resolve('paid', held({ ...payment('pi_usd'), currency: 'USD' })), acceptedAmount: 4200 })
        .thenRefuses('ORDER.PAYMENT_AMOUNT_MISMATCH', { details: { paid: { currency: 'USD' } } });
    });
  });

  describe('when the order does not wait for review', () => {
    it.each<[string, OrderEvent[]]>([
      ['pending', [requested]],
      ['processing', [requested, started]],
      ['unknown', [requested, started, unknown]],
      ['paid', [...inReview, resolved('paid', payment('pi_1'))]],
    ])('refuses a %s order with ORDER.NOT_IN_REVIEW', (status, history) => {
      spec
        .given(history)
        .when(resolve('paid'))
        .thenRefuses('ORDER.NOT_IN_REVIEW', {
          kind: 'unprocessable',
          message: `Order 481 is ${status}, not waiting for review`,
          details: { orderStatus: status },
        });
    });

    describe('when the request that resolved it is sent again (its answer lost to a 503)', () => {
      /** The resolution as the store holds it: its metadata names the request (X-Request-Id) that decided it. */
      const resolvedBy = (requestId: string, event: OrderEvent): OrderEvent => {
        const stored: OrderEvent & { metadata: { recordedAt: string; correlationId: string } } = {
          ...event,
          metadata: { recordedAt: '2026-12-03T00:00:00.000Z', correlationId: requestId },
        };
        return stored;
      };

      it('answers with the order as that request left it and appends nothing', () => {
        spec
          .given([...inReview, resolvedBy('req-9', resolved('failed'))])
          .when(resolve('failed'))
          .thenNothing();
      });

      it('refuses the same request id with another resolution as a closed case', () => {
        spec
          .given([...inReview, resolvedBy('req-9', resolved('failed'))])
          .when(resolve('paid'))
          .thenRefuses('ORDER.NOT_IN_REVIEW', { details: { orderStatus: 'failed' } });
      });

      it('refuses the same request id with another note as a closed case', () => {
        spec
          .given([...inReview, resolvedBy('req-9', resolved('failed'))])
          .when({ ...resolve('failed'), note: 'another note' })
          .thenRefuses('ORDER.NOT_IN_REVIEW', { details: { orderStatus: 'failed' } });
      });

      it('refuses another request as a closed case', () => {
        spec
          .given([...inReview, resolvedBy('req-8', resolved('failed'))])
          .when(resolve('failed'))
          .thenRefuses('ORDER.NOT_IN_REVIEW', { details: { orderStatus: 'failed' } });
      });

      it('refuses it once the order has moved on (a new request after the failure)', () => {
        spec
          .given([...inReview, resolvedBy('req-9', resolved('failed')), { ...requested, data: { ...requested.data, requestNumber: 2 } }])
          .when(resolve('failed'))
          .thenRefuses('ORDER.NOT_IN_REVIEW', { details: { orderStatus: 'pending' } });
      });
    });

    it('refuses an order that was never requested with ORDER.NOT_FOUND', () => {
      spec
        .given([])
        .when(resolve('paid'))
        .thenRefuses('ORDER.NOT_FOUND', { kind: 'not_found', message: 'No charge was ever requested for order 481' });
    });
  });
});
