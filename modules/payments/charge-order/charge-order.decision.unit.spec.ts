import { initialOrderState, type OrderState } from '../order.state';
import type { ProviderPayment } from '../payment-gateway/payment-gateway.port';
import {
  MAX_CONSECUTIVE_NOT_SENT,
  MAX_CONSECUTIVE_UNKNOWN,
  PROCESSING_RECORDED_EVERY_MS,
  decideNextStep,
  decideOutcome,
  decideProcessingCheck,
  decideVerification,
  stopRuleReached,
  type NextStep,
} from './charge-order.decision';
import type { ChargeOutcomeUnknown } from '../order.events';

const state = (overrides: Partial<OrderState> = {}): OrderState => ({
  ...initialOrderState(),
  exists: true,
  orderId: 'o1',
  status: 'unknown',
  amount: 4200,
  currency: 'EUR',
  customerId: 'cus_1',
  providerKey: 'idem-order-o1-r2',
  requestNumber: 2,
  attempts: 1,
  ...overrides,
});
const unknown = (data: Partial<ChargeOutcomeUnknown['data']> = {}): ChargeOutcomeUnknown => ({
  type: 'ChargeOutcomeUnknown',
  data: { orderId: 'o1', attempt: 2, error: 'x', ...data },
});
const payment = (overrides: Partial<ProviderPayment>): ProviderPayment => ({
  paymentIntentId: 'pi_1',
  status: 'succeeded',
  amount: 4200,
  currency: 'EUR',
  orderId: 'o1',
  ...overrides,
});

describe('decideVerification', () => {
  describe("when the only decline the provider holds is an earlier request's", () => {
    it('does not take it for this attempt: nothing is known about the current key, so a new attempt may go on', () => {
      const earlier = payment({
        paymentIntentId: 'pi_old',
        status: 'failed',
        providerKey: 'idem-order-o1-r1',
        declineCode: 'generic_decline',
      });

      expect(decideVerification(state(), [earlier])).toBeUndefined();
    });
  });

  describe("when the current key's payment was declined", () => {
    it('records the decline', () => {
      const current = payment({
        paymentIntentId: 'pi_new',
        status: 'failed',
        providerKey: 'idem-order-o1-r2',
        declineCode: 'insufficient_funds',
      });

      expect(decideVerification(state(), [current])).toMatchObject({
        type: 'ChargeFailed',
        data: { declineCode: 'insufficient_funds', paymentIntentId: 'pi_new' },
      });
    });
  });

  describe('when a payment of the order is still pending', () => {
    it('keeps the outcome unknown rather than allowing a new attempt beside it', () => {
      expect(decideVerification(state(), [payment({ status: 'pending', providerKey: 'idem-order-o1-r2' })])).toMatchObject({
        type: 'ChargeOutcomeUnknown',
      });
    });
  });

  describe('when the provider holds one succeeded payment', () => {
    it('records it as recovered', () => {
      expect(decideVerification(state(), [payment({ providerKey: 'idem-order-o1-r2' })])).toMatchObject({
        type: 'ChargeSucceeded',
        data: { recovered: true },
      });
    });
  });

  describe("when the provider's one succeeded payment for the order is another customer's", () => {
    it('asks for review with the reason instead of taking it for this order', () => {
      expect(decideVerification(state(), [payment({ customerId: 'cus_2' })])).toStrictEqual({
        type: 'ChargeNeedsReview',
        data: { orderId: 'o1', reason: "provider payment pi_1 is customer cus_2's, the order is customer cus_1's" },
      });
      expect(decideVerification(state(), [payment({ customerId: 'cus_1' })])).toMatchObject({ type: 'ChargeSucceeded' });
    });
  });
});

describe('decideOutcome', () => {
  it('sends a charge the customer must authenticate to review with the reason', () => {
    const event = decideOutcome(state(), 2, {
      kind: 'action_required',
      paymentIntentId: 'pi_1',
      reason: 'authentication_required: the customer must authenticate',
    });

    expect(event).toMatchObject({ type: 'ChargeNeedsReview', data: { reason: expect.stringContaining('authentication_required') } });
  });

  it('records a processing payment as an outcome still to be verified', () => {
    expect(decideOutcome(state(), 2, { kind: 'pending', paymentIntentId: 'pi_1', reason: 'pi_1 is processing' })).toMatchObject({
      type: 'ChargeOutcomeUnknown',
      data: { attempt: 2 },
    });
  });

  it('records a replayed success as recovered and a fresh one as not', () => {
    const paid = payment({});

    expect(decideOutcome(state(), 2, { kind: 'succeeded', payment: paid, replayed: true })).toMatchObject({
      type: 'ChargeSucceeded',
      data: { recovered: true },
    });
    expect(decideOutcome(state(), 2, { kind: 'succeeded', payment: paid, replayed: false })).toMatchObject({
      type: 'ChargeSucceeded',
      data: { recovered: false },
    });
  });
});

describe('decideNextStep', () => {
  const now = new Date('2026-12-01T12:00:00.000Z');
  const LEASE_MS = 60_000;
  const startedAgo = (ms: number) => new Date(now.getTime() - ms).toISOString();

  // The stop rules and the lease as a table: the order as it stands → what the worker does next.
  it.each<[string, Partial<OrderState>, NextStep]>([
    ['no charge requested', { exists: false }, { kind: 'nothing', reason: 'no charge was requested' }],
    ['paid', { status: 'paid' }, { kind: 'nothing', reason: 'order is paid' }],
    ['failed', { status: 'failed' }, { kind: 'nothing', reason: 'order is failed' }],
    ['in review', { status: 'needs_review' }, { kind: 'nothing', reason: 'order is needs_review' }],
    ['pending after 1 attempt', { status: 'pending', attempts: 1 }, { kind: 'attempt', attempt: 2 }],
    ['pending, never attempted', { status: 'pending', attempts: 0 }, { kind: 'attempt', attempt: 1 }],
    [
      'processing, attempt started 1 ms inside the lease',
      { status: 'processing', lastAttemptAt: startedAgo(LEASE_MS - 1) },
      { kind: 'leave_to_other_worker' },
    ],
    ['processing, attempt started exactly a lease ago', { status: 'processing', lastAttemptAt: startedAgo(LEASE_MS) }, { kind: 'verify' }],
    ['processing, no attempt time recorded', { status: 'processing', lastAttemptAt: undefined }, { kind: 'verify' }],
    [
      'processing at the provider, answered 1 ms ago (no attempt in flight to wait for)',
      { status: 'processing', processingAtProvider: true, lastAttemptAt: startedAgo(1) },
      { kind: 'verify' },
    ],
    ['unknown once', { status: 'unknown', consecutiveUnknown: 1 }, { kind: 'verify' }],
    ['unknown four times in a row', { status: 'unknown', consecutiveUnknown: 4 }, { kind: 'verify' }],
    [
      'unknown five times in a row',
      { status: 'unknown', consecutiveUnknown: 5 },
      { kind: 'review', event: { type: 'ChargeNeedsReview', data: { orderId: 'o1', reason: '5 consecutive unknown outcomes' } } },
    ],
    [
      'unknown six times in a row',
      { status: 'unknown', consecutiveUnknown: 6 },
      { kind: 'review', event: { type: 'ChargeNeedsReview', data: { orderId: 'o1', reason: '6 consecutive unknown outcomes' } } },
    ],
    [
      'unknown four times, then nine calls never sent',
      { status: 'unknown', consecutiveUnknown: 4, consecutiveNotSent: 9 },
      { kind: 'verify' },
    ],
    [
      'ten calls in a row never sent',
      { status: 'unknown', consecutiveNotSent: 10 },
      {
        kind: 'review',
        event: {
          type: 'ChargeNeedsReview',
          data: {
            orderId: 'o1',
            reason: 'the provider ran none of 10 calls in a row (no try connected, or each was rate limited: nothing was executed)',
          },
        },
      },
    ],
  ])('%s → %j', (_label, overrides, expected) => {
    expect(decideNextStep(state(overrides), now, LEASE_MS)).toStrictEqual(expected);
  });

  it('stops after MAX_CONSECUTIVE_UNKNOWN (five) unknown outcomes, as DESIGN §7.5 says', () => {
    expect(MAX_CONSECUTIVE_UNKNOWN).toBe(5);
  });

  it('stops after MAX_CONSECUTIVE_NOT_SENT (ten) calls that never reached the provider', () => {
    expect(MAX_CONSECUTIVE_NOT_SENT).toBe(10);
  });
});

describe('stopRuleReached, after an open outcome is recorded', () => {
  it.each<[string, Partial<OrderState>, ChargeOutcomeUnknown, string | undefined]>([
    ['the fifth unknown outcome', { consecutiveUnknown: 4 }, unknown(), '5 consecutive unknown outcomes'],
    ['a fifth call never sent after four unknown outcomes', { consecutiveUnknown: 4 }, unknown({ notSent: true }), undefined],
    ['the ninth call never sent', { consecutiveNotSent: 8 }, unknown({ notSent: true }), undefined],
    [
      'the tenth call never sent',
      { consecutiveNotSent: 9 },
      unknown({ notSent: true }),
      'the provider ran none of 10 calls in a row (no try connected, or each was rate limited: nothing was executed)',
    ],
    ['an unknown outcome after nine calls never sent', { consecutiveNotSent: 9 }, unknown(), undefined],
    ['the provider still processing', { consecutiveUnknown: 4 }, unknown({ providerStatus: 'processing' }), undefined],
  ])('%s → %j', (_label, overrides, recorded, expected) => {
    expect(stopRuleReached(state(overrides), recorded)).toBe(expected);
  });
});

describe('decideOutcome of a call none of whose tries connected', () => {
  it('records an unknown outcome marked as not sent', () => {
    expect(decideOutcome(state(), 2, { kind: 'unknown', error: 'refused', notSent: true })).toStrictEqual(
      unknown({ notSent: true, error: 'refused' }),
    );
  });
});

describe('decideOutcome, every kind of provider answer', () => {
  it('records a decline with its code, reason and intent', () => {
    expect(
      decideOutcome(state(), 2, {
        kind: 'declined',
        declineCode: 'insufficient_funds',
        reason: 'Your card has insufficient funds.',
        paymentIntentId: 'pi_9',
      }),
    ).toStrictEqual({
      type: 'ChargeFailed',
      data: {
        orderId: 'o1',
        attempt: 2,
        declineCode: 'insufficient_funds',
        reason: 'Your card has insufficient funds.',
        paymentIntentId: 'pi_9',
      },
    });
  });

  it('records a fresh success with the intent, the charge and the amount', () => {
    expect(decideOutcome(state(), 2, { kind: 'succeeded', payment: payment({ chargeId: 'ch_1' }), replayed: false })).toStrictEqual({
      type: 'ChargeSucceeded',
      data: { orderId: 'o1', paymentIntentId: 'pi_1', providerChargeId: 'ch_1', amount: 4200, currency: 'EUR', recovered: false },
    });
  });

  it.each<[string, Partial<ProviderPayment>, string]>([
    ['another amount', { amount: 999 }, 'provider payment pi_1 is 999 EUR, the order is 4200 EUR'],
    ['another currency', { currency: 'USD' }, 'provider payment pi_1 is 4200 USD, the order is 4200 EUR'],
  ])('sends a success for %s to review (contradictory provider data)', (_label, change, reason) => {
    expect(decideOutcome(state(), 2, { kind: 'succeeded', payment: payment(change), replayed: false })).toStrictEqual({
      type: 'ChargeNeedsReview',
      data: { orderId: 'o1', reason },
    });
  });

  it('words the review reasons for customer action and provider refusals, and marks a refusal as the request being over there', () => {
    expect(decideOutcome(state(), 2, { kind: 'action_required', paymentIntentId: 'pi_1', reason: 'needs 3DS' })).toStrictEqual({
      type: 'ChargeNeedsReview',
      data: { orderId: 'o1', reason: 'customer action required: needs 3DS' },
    });
    expect(decideOutcome(state(), 2, { kind: 'rejected', reason: 'No such customer' })).toStrictEqual({
      type: 'ChargeNeedsReview',
      data: { orderId: 'o1', reason: 'provider rejected the request: No such customer', providerAnswered: true },
    });
  });

  it("records a pending payment and a lost answer as unknown outcomes of this attempt, the first as the provider's processing", () => {
    expect(decideOutcome(state(), 3, { kind: 'pending', paymentIntentId: 'pi_1', reason: 'pi_1 is processing' })).toStrictEqual({
      type: 'ChargeOutcomeUnknown',
      data: { orderId: 'o1', attempt: 3, error: 'pending: pi_1 is processing', providerStatus: 'processing', paymentIntentId: 'pi_1' },
    });
    expect(decideOutcome(state(), 3, { kind: 'unknown', error: 'ETIMEDOUT' })).toStrictEqual({
      type: 'ChargeOutcomeUnknown',
      data: { orderId: 'o1', attempt: 3, error: 'ETIMEDOUT' },
    });
  });
});

describe('decideVerification, what the provider holds decides', () => {
  const current = { providerKey: 'idem-order-o1-r2' };

  it('allows a new attempt when the provider holds nothing for the order', () => {
    expect(decideVerification(state(), [])).toBeUndefined();
  });

  it('sends two succeeded payments for one order to review, naming both', () => {
    expect(
      decideVerification(state(), [
        payment({ paymentIntentId: 'pi_a' }),
        payment({ paymentIntentId: 'pi_b' }),
        payment({ paymentIntentId: 'pi_c', status: 'failed' }),
      ]),
    ).toStrictEqual({
      type: 'ChargeNeedsReview',
      data: { orderId: 'o1', reason: 'provider holds 2 succeeded payments for one order: pi_a, pi_b' },
    });
  });

  it('records the one succeeded payment as recovered, whatever else failed', () => {
    expect(
      decideVerification(state(), [
        payment({ status: 'failed', paymentIntentId: 'pi_0', ...current }),
        payment({ chargeId: 'ch_1', ...current }),
      ]),
    ).toStrictEqual({
      type: 'ChargeSucceeded',
      data: { orderId: 'o1', paymentIntentId: 'pi_1', providerChargeId: 'ch_1', amount: 4200, currency: 'EUR', recovered: true },
    });
  });

  it('sends a succeeded payment of another amount to review', () => {
    expect(decideVerification(state(), [payment({ amount: 1, ...current })])).toStrictEqual({
      type: 'ChargeNeedsReview',
      data: { orderId: 'o1', reason: 'provider payment pi_1 is 1 EUR, the order is 4200 EUR' },
    });
  });

  it('keeps a pending payment unknown, naming it, even beside a decline of this key', () => {
    expect(
      decideVerification(state(), [payment({ status: 'failed', ...current }), payment({ status: 'pending', paymentIntentId: 'pi_p' })]),
    ).toStrictEqual({
      type: 'ChargeOutcomeUnknown',
      data: {
        orderId: 'o1',
        attempt: 1,
        error: 'pending: payment intent pi_p is not settled at the provider',
        providerStatus: 'processing',
        paymentIntentId: 'pi_p',
      },
    });
  });

  it('records a decline of this key found by verification, card_declined when it carries no code', () => {
    expect(decideVerification(state(), [payment({ status: 'failed', paymentIntentId: 'pi_d', ...current })])).toStrictEqual({
      type: 'ChargeFailed',
      data: {
        orderId: 'o1',
        attempt: 1,
        declineCode: 'card_declined',
        reason: 'declined (found by verification)',
        paymentIntentId: 'pi_d',
      },
    });
  });
});

describe('decideProcessingCheck, a look at the intent the provider said is processing', () => {
  const recordedAt = '2026-12-02T08:00:00.000Z';
  const processing = state({
    status: 'processing',
    processingAtProvider: true,
    processingPaymentIntentId: 'pi_p',
    updatedAt: recordedAt,
  });
  const after = (ms: number) => new Date(Date.parse(recordedAt) + ms);
  const current = { providerKey: 'idem-order-o1-r2' };

  it('appends nothing while the intent still processes and the last answer is recent', () => {
    expect(decideProcessingCheck(processing, payment({ status: 'pending', paymentIntentId: 'pi_p' }), after(60_000))).toStrictEqual({
      kind: 'still_processing',
      reason: 'pending: payment intent pi_p is not settled at the provider',
    });
    expect(
      decideProcessingCheck(processing, payment({ status: 'pending', paymentIntentId: 'pi_p' }), after(PROCESSING_RECORDED_EVERY_MS - 1)),
    ).toMatchObject({ kind: 'still_processing' });
  });

  it('records the processing answer again once the last change is as old as the interval, so the sweep never takes it for abandoned', () => {
    expect(
      decideProcessingCheck(processing, payment({ status: 'pending', paymentIntentId: 'pi_p' }), after(PROCESSING_RECORDED_EVERY_MS)),
    ).toStrictEqual({
      kind: 'record',
      event: {
        type: 'ChargeOutcomeUnknown',
        data: {
          orderId: 'o1',
          attempt: 1,
          error: 'pending: payment intent pi_p is not settled at the provider',
          providerStatus: 'processing',
          paymentIntentId: 'pi_p',
        },
      },
    });
  });

  it('records a settled intent at once: paid as recovered, a failed debit of this key as ChargeFailed', () => {
    expect(decideProcessingCheck(processing, payment({ paymentIntentId: 'pi_p', ...current }), after(1))).toMatchObject({
      kind: 'record',
      event: { type: 'ChargeSucceeded', data: { paymentIntentId: 'pi_p', recovered: true } },
    });
    expect(decideProcessingCheck(processing, payment({ status: 'failed', paymentIntentId: 'pi_p', ...current }), after(1))).toMatchObject({
      kind: 'record',
      event: { type: 'ChargeFailed', data: { paymentIntentId: 'pi_p' } },
    });
  });

  it('leaves an intent that is gone, or a decline under another key, to the verification by key', () => {
    expect(decideProcessingCheck(processing, undefined, after(1))).toStrictEqual({ kind: 'verify_by_key' });
    expect(
      decideProcessingCheck(processing, payment({ status: 'failed', paymentIntentId: 'pi_p', providerKey: 'idem-order-o1-r1' }), after(1)),
    ).toStrictEqual({ kind: 'verify_by_key' });
  });
});
