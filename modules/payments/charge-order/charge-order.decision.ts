/**
 * The charge worker's decisions, pure: what to do next with an order, what a provider answer means,
 * and what the provider's records say about an outcome we do not know. Stop rules live here too.
 */
import {
  isNotSent,
  isProcessingAtProvider,
  type ChargeNeedsReview,
  type ChargeOutcomeUnknown,
  type ChargeSucceeded,
  type OrderEvent,
} from '../order.events';
import type { OrderState } from '../order.state';
import { contradictionOf } from '../payment-contradiction';
import type { ChargeOutcome, ProviderPayment } from '../payment-gateway/payment-gateway.port';
import { reviewsForOutsidePayments, type OutsidePayment } from './outside-payments.decision';

/** Five unknown outcomes in a row: stop retrying, hand it to a human (DESIGN §7.5). */
export const MAX_CONSECUTIVE_UNKNOWN = 5;

/**
 * Calls in a row that the provider ran none of (ChargeOutcomeUnknown `notSent`: it was not reached, or
 * it answered 429, rate limited) before a person is told. They ran nothing, so they are not unknown outcomes; but a provider unreachable for this many
 * tries is down for long: with the queue's backoff (exp(attempt) s) and the recovery sweep's tries
 * between them, ten take from tens of minutes to a few hours.
 */
export const MAX_CONSECUTIVE_NOT_SENT = 10;

const unreachable = (calls: number) =>
  `the provider ran none of ${calls} calls in a row (no try connected, or each was rate limited: nothing was executed)`;

/**
 * The stop rule an open outcome just recorded reaches, as the review's reason, if it reaches one. The
 * provider's "processing" is an answer and counts towards none.
 */
export function stopRuleReached(state: OrderState, recorded: ChargeOutcomeUnknown): string | undefined {
  if (isProcessingAtProvider(recorded)) return undefined;
  if (isNotSent(recorded))
    return state.consecutiveNotSent + 1 >= MAX_CONSECUTIVE_NOT_SENT ? unreachable(state.consecutiveNotSent + 1) : undefined;
  return state.consecutiveUnknown + 1 >= MAX_CONSECUTIVE_UNKNOWN
    ? `${state.consecutiveUnknown + 1} consecutive unknown outcomes`
    : undefined;
}

export type NextStep =
  | { kind: 'nothing'; reason: string }
  /** Another worker started an attempt moments ago: leave it alone. */
  | { kind: 'leave_to_other_worker' }
  /** An earlier attempt has no recorded outcome: ask the provider before anything else. */
  | { kind: 'verify' }
  | { kind: 'attempt'; attempt: number }
  | { kind: 'review'; event: ChargeNeedsReview }
  /** Payments made outside Idem before the order existed: no first attempt, a person decides. */
  | { kind: 'review_outside_payments'; events: ChargeNeedsReview[] };

/**
 * `outsidePayments`: the succeeded payments remembered for this order id from before it existed
 * (see outside-payments.decision.ts); the worker looks them up for an order that is still pending,
 * so they are checked before every first provider call of a request.
 */
export function decideNextStep(
  state: OrderState,
  now: Date,
  attemptLeaseMs: number,
  outsidePayments: readonly OutsidePayment[] = [],
): NextStep {
  if (!state.exists) return { kind: 'nothing', reason: 'no charge was requested' };
  if (state.status === 'paid' || state.status === 'failed' || state.status === 'needs_review') {
    return { kind: 'nothing', reason: `order is ${state.status}` };
  }
  if (state.status === 'processing') {
    // The provider's own "processing" is a recorded outcome, not an attempt in flight: check it again.
    if (state.processingAtProvider) return { kind: 'verify' };
    const startedAt = state.lastAttemptAt ? Date.parse(state.lastAttemptAt) : 0;
    if (now.getTime() - startedAt < attemptLeaseMs) return { kind: 'leave_to_other_worker' };
    return { kind: 'verify' };
  }
  if (state.status === 'unknown') {
    if (state.consecutiveUnknown >= MAX_CONSECUTIVE_UNKNOWN)
      return { kind: 'review', event: needsReview(state, `${state.consecutiveUnknown} consecutive unknown outcomes`) };
    if (state.consecutiveNotSent >= MAX_CONSECUTIVE_NOT_SENT)
      return { kind: 'review', event: needsReview(state, unreachable(state.consecutiveNotSent)) };
    return { kind: 'verify' };
  }
  const reviews = reviewsForOutsidePayments(state, outsidePayments);
  if (reviews.length) return { kind: 'review_outside_payments', events: reviews };
  return { kind: 'attempt', attempt: state.attempts + 1 };
}

/**
 * What the provider's answer to a charge means for the order. A replayed success is a charge an
 * earlier call made (recovered). A payment the customer must authenticate goes to a person with the
 * reason; a payment still processing is an outcome not known yet, marked as the provider's answer
 * (it does not count towards the stop rule) and verified later by the same key — never a new attempt
 * under a new key.
 */
export function decideOutcome(state: OrderState, attempt: number, outcome: Exclude<ChargeOutcome, { kind: 'in_progress' }>): OrderEvent {
  const orderId = state.orderId;
  switch (outcome.kind) {
    case 'succeeded': {
      const contradiction = contradictionOf(state, outcome.payment);
      return contradiction ? needsReview(state, contradiction) : succeeded(state, outcome.payment, outcome.replayed);
    }
    case 'declined':
      return {
        type: 'ChargeFailed',
        data: { orderId, attempt, declineCode: outcome.declineCode, reason: outcome.reason, paymentIntentId: outcome.paymentIntentId },
      };
    case 'action_required':
      return needsReview(state, `customer action required: ${outcome.reason}`);
    case 'rejected':
      return answeredByReview(state, `provider rejected the request: ${outcome.reason}`);
    case 'pending':
      return processing(state, attempt, outcome.reason, outcome.paymentIntentId);
    case 'unknown':
      return { type: 'ChargeOutcomeUnknown', data: { orderId, attempt, error: outcome.error, ...(outcome.notSent && { notSent: true }) } };
  }
}

/**
 * Verification by search, once the request's key may have expired at the provider (see
 * charge-order.job: within the key window the create is replayed instead). The provider's payments
 * for the order decide. A decline counts only if it carries this request's key: an earlier request's
 * decline says nothing about this one. A payment still pending keeps the outcome open (no new
 * attempt beside it), recorded as the provider's "processing" answer. `undefined` means the provider
 * holds nothing for this request, so a new attempt is safe.
 */
export function decideVerification(state: OrderState, payments: ProviderPayment[]): OrderEvent | undefined {
  const succeededPayments = payments.filter((p) => p.status === 'succeeded');
  if (succeededPayments.length > 1) {
    return needsReview(
      state,
      `provider holds ${succeededPayments.length} succeeded payments for one order: ${succeededPayments.map((p) => p.paymentIntentId).join(', ')}`,
    );
  }
  if (succeededPayments.length === 1) {
    const contradiction = contradictionOf(state, succeededPayments[0]);
    return contradiction ? needsReview(state, contradiction) : succeeded(state, succeededPayments[0], true);
  }
  const pending = payments.find((p) => p.status === 'pending');
  if (pending)
    return processing(
      state,
      state.attempts,
      `payment intent ${pending.paymentIntentId} is not settled at the provider`,
      pending.paymentIntentId,
    );
  const declined = payments.find((p) => p.status === 'failed' && p.providerKey === state.providerKey);
  if (declined) {
    return {
      type: 'ChargeFailed',
      data: {
        orderId: state.orderId,
        attempt: state.attempts,
        declineCode: declined.declineCode ?? 'card_declined',
        reason: 'declined (found by verification)',
        paymentIntentId: declined.paymentIntentId,
      },
    };
  }
  return undefined;
}

function succeeded(state: OrderState, payment: ProviderPayment, recovered: boolean): ChargeSucceeded {
  return {
    type: 'ChargeSucceeded',
    data: {
      orderId: state.orderId,
      paymentIntentId: payment.paymentIntentId,
      providerChargeId: payment.chargeId,
      amount: payment.amount,
      currency: payment.currency,
      recovered,
    },
  };
}

function processing(state: OrderState, attempt: number, reason: string, paymentIntentId: string): ChargeOutcomeUnknown {
  return {
    type: 'ChargeOutcomeUnknown',
    data: { orderId: state.orderId, attempt, error: `pending: ${reason}`, providerStatus: 'processing', paymentIntentId },
  };
}

/**
 * A processing answer is recorded again after this long without any other change, though the payment
 * still processes: the recovery sweep hands an order whose last change left its window (24 h by
 * default) to a person, and a bank debit that is being checked is in someone's hands. The queue's
 * backoff caps at about six hours (graphile-worker: exp(min(attempts, 10)) s), so the last change is
 * never older than about twelve hours while the checks go on.
 */
export const PROCESSING_RECORDED_EVERY_MS = 6 * 3_600_000;

export type ProcessingCheck =
  /** The provider's answer moved the order (settled, failed, contradicted) or is due again: record it. */
  | { kind: 'record'; event: OrderEvent }
  /** Still processing, recorded recently: nothing new to append; the queue checks again later. */
  | { kind: 'still_processing'; reason: string }
  /** The intent alone does not say (not found, or not this request's): verify as any open outcome. */
  | { kind: 'verify_by_key' };

/**
 * What a look at the processing intent itself (a GET: no side effect at the provider, so no attempt is
 * recorded before it) means. A debit stays processing for days and is checked many times; an answer
 * that only repeats the recorded one appends nothing, so the order's history shows what changed, not
 * every look — where each check used to add an attempt and its outcome.
 */
export function decideProcessingCheck(state: OrderState, payment: ProviderPayment | undefined, now: Date): ProcessingCheck {
  const verdict = payment && decideVerification(state, [payment]);
  if (!verdict) return { kind: 'verify_by_key' };
  if (verdict.type !== 'ChargeOutcomeUnknown') return { kind: 'record', event: verdict };
  const lastChange = state.updatedAt ? Date.parse(state.updatedAt) : 0;
  if (now.getTime() - lastChange >= PROCESSING_RECORDED_EVERY_MS) return { kind: 'record', event: verdict };
  return { kind: 'still_processing', reason: verdict.data.error };
}

function needsReview(state: OrderState, reason: string): ChargeNeedsReview {
  return { type: 'ChargeNeedsReview', data: { orderId: state.orderId, reason } };
}

/**
 * The provider refused the attempt's request outright (validation, its API key, a key reused with
 * other parameters): that request ran nothing and is over there (see `providerAnswered`).
 */
function answeredByReview(state: OrderState, reason: string): ChargeNeedsReview {
  return { type: 'ChargeNeedsReview', data: { orderId: state.orderId, reason, providerAnswered: true } };
}
