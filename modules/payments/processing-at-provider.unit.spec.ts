/**
 * A provider answer "processing" (a SEPA debit in flight for days) is recorded as ChargeOutcomeUnknown
 * with `providerStatus: 'processing'`: the order reads as processing, is checked again later, and the
 * answer never counts towards the stop rule for unknown outcomes. Events without the field fold as before.
 */
import { decideNextStep } from './charge-order/charge-order.decision';
import type { OrderEvent } from './order.events';
import { evolveOrder, initialOrderState, type OrderState } from './order.state';
import type { ProviderPayment } from './payment-gateway/payment-gateway.port';
import { decideWebhook } from './receive-webhook/webhook.decision';

const requested: OrderEvent = {
  type: 'ChargeRequested',
  data: {
    orderId: 'sepa-1',
    amount: 4200,
    currency: 'EUR',
    customerId: 'c1',
    requestFingerprint: 'f1',
    providerKey: 'idem-order-sepa-1-r1',
    requestNumber: 1,
  },
};
const attempt = (n: number): OrderEvent => ({
  type: 'ChargeAttemptStarted',
  data: { orderId: 'sepa-1', attempt: n, workerId: 'w', providerKey: 'idem-order-sepa-1-r1' },
});
const processing = (n: number): OrderEvent => ({
  type: 'ChargeOutcomeUnknown',
  data: {
    orderId: 'sepa-1',
    attempt: n,
    error: 'pending: payment intent pi_1 is processing at the provider',
    providerStatus: 'processing',
  },
});
const timeout = (n: number): OrderEvent => ({ type: 'ChargeOutcomeUnknown', data: { orderId: 'sepa-1', attempt: n, error: 'ETIMEDOUT' } });

const fold = (events: OrderEvent[]): OrderState => events.reduce(evolveOrder, initialOrderState());
/** `checks` rounds of the worker's check under the same key, each answered with `answer`. */
const checked = (checks: number, answer: (n: number) => OrderEvent, from = 1): OrderEvent[] =>
  Array.from({ length: checks }, (_, i) => [attempt(from + i), answer(from + i)]).flat();

const now = new Date('2026-12-02T08:00:00.000Z');
const LEASE_MS = 60_000;

describe("the order fold, when the provider answers 'processing'", () => {
  it('reads as processing, to be checked again, without counting an unknown outcome', () => {
    expect(fold([requested, ...checked(1, processing)])).toMatchObject({
      status: 'processing',
      processingAtProvider: true,
      consecutiveUnknown: 0,
      attempts: 1,
      lastError: 'pending: payment intent pi_1 is processing at the provider',
    });
  });

  it('is still checked again, never sent to review, after more checks than the stop rule allows unknown outcomes', () => {
    const state = fold([requested, ...checked(7, processing)]);

    expect(state).toMatchObject({ status: 'processing', consecutiveUnknown: 0, attempts: 7 });
    expect(decideNextStep(state, now, LEASE_MS)).toEqual({ kind: 'verify' });
  });

  it('ends a run of unknown outcomes: what was lost was found in flight', () => {
    const state = fold([requested, ...checked(4, timeout), ...checked(1, processing, 5)]);

    expect(state).toMatchObject({ status: 'processing', consecutiveUnknown: 0 });
    expect(fold([requested, ...checked(4, timeout), ...checked(1, processing, 5), ...checked(1, timeout, 6)])).toMatchObject({
      status: 'unknown',
      consecutiveUnknown: 1,
      processingAtProvider: false,
    });
  });

  it('leaves a check in flight to its lease like any attempt', () => {
    const state = fold([requested, ...checked(1, processing), attempt(2)]);

    expect(state).toMatchObject({ status: 'processing', processingAtProvider: false });
    expect(decideNextStep({ ...state, lastAttemptAt: now.toISOString() }, now, LEASE_MS)).toEqual({ kind: 'leave_to_other_worker' });
  });
});

describe('the order fold, for unknown outcomes recorded without a provider status', () => {
  it('folds them as before: unknown, counted, and five in a row go to review', () => {
    const state = fold([requested, ...checked(5, timeout)]);

    expect(state).toMatchObject({ status: 'unknown', consecutiveUnknown: 5, processingAtProvider: false, lastError: 'ETIMEDOUT' });
    expect(decideNextStep(state, now, LEASE_MS)).toMatchObject({ kind: 'review' });
  });
});

describe('a provider webhook, for an order processing at the provider', () => {
  const debit = (status: ProviderPayment['status']): ProviderPayment => ({
    paymentIntentId: 'pi_1',
    status,
    amount: 4200,
    currency: 'EUR',
    orderId: 'sepa-1',
    providerKey: 'idem-order-sepa-1-r1',
    declineCode: status === 'failed' ? 'generic_decline' : undefined,
  });
  const state = fold([requested, ...checked(6, processing)]);

  it('settles it at once when the debit succeeded', () => {
    expect(decideWebhook(state, debit('succeeded'))).toMatchObject({
      type: 'ChargeSucceeded',
      data: { paymentIntentId: 'pi_1', recovered: true },
    });
  });

  it('fails it at once when the debit failed', () => {
    expect(decideWebhook(state, debit('failed'))).toMatchObject({ type: 'ChargeFailed', data: { declineCode: 'generic_decline' } });
  });
});
