/**
 * ResolveReview: a support person closes a needs-review case with a note, saying whether the order
 * is to be treated as paid or as failed (after checking the provider's dashboard, the customer…).
 * Either way the provider is asked first (provider-check.ts): "paid" needs a payment it holds, which
 * the resolution records; "failed" needs none that took, or may yet take, the money.
 */
import type { NewEvent } from '../../../src/command-handling/decider';
import { AppError } from '../../../src/errors/app-error';
import type { ChargeReviewResolved, OrderEvent } from '../order.events';
import type { OrderState } from '../order.state';
import type { ProviderCheck } from './provider-check';

export interface ResolveReview {
  orderId: string;
  actor: string;
  note: string;
  resolution: 'paid' | 'failed';
  /** The HTTP request's id: two people resolving at once must conflict, not look like one retry. */
  requestId: string;
  /** What the provider holds for the order across every key it used; required to resolve either way. */
  providerCheck?: ProviderCheck;
  /**
   * Resolved as paid: the amount (minor units, the order's currency) support accepts when the
   * provider's payment is not the amount ordered. Without it such a payment is refused; with it, it
   * must be that payment's amount exactly.
   */
  acceptedAmount?: number;
}

export function decideResolveReview(command: ResolveReview, state: OrderState): NewEvent<OrderEvent>[] {
  if (!state.exists) throw new AppError('not_found', 'ORDER.NOT_FOUND', `No charge was ever requested for order ${command.orderId}`);
  if (isRepeatOfLastResolution(command, state)) return [];
  if (state.status !== 'needs_review') {
    throw new AppError('unprocessable', 'ORDER.NOT_IN_REVIEW', `Order ${command.orderId} is ${state.status}, not waiting for review`, {
      orderStatus: state.status,
    });
  }
  if (command.acceptedAmount !== undefined && command.resolution !== 'paid') {
    throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', {
      errors: [{ field: 'acceptedAmount', message: 'acceptedAmount is only for the resolution "paid"' }],
    });
  }
  // The order went into review after the caller looked: ask again.
  const check = command.providerCheck;
  if (!check)
    throw new AppError('conflict', 'ORDER.PROVIDER_CHECK_STALE', `Order ${command.orderId} changed while it was being checked; try again`);
  const payment = command.resolution === 'paid' ? paymentThatPaid(command, check, state) : undefined;
  const orderedAmount = payment ? acceptedDifference(command, state, payment) : undefined;
  if (command.resolution === 'failed') refuseWhileMoneyMayHaveMoved(command.orderId, check);
  return [
    {
      event: {
        type: 'ChargeReviewResolved',
        data: {
          orderId: command.orderId,
          actor: command.actor,
          note: command.note,
          resolution: command.resolution,
          ...(payment ? { payment } : {}),
          ...(orderedAmount !== undefined ? { orderedAmount } : {}),
        },
      },
      // With the request id in the event id, a second resolution decided on the same state is a
      // conflict (its author re-reads and is told the case is closed) rather than an idempotent
      // re-append of the first, which would answer 200 with a decision the stream does not hold.
      key: `review-resolved/r${state.requestNumber}/${state.attempts}/${state.consecutiveUnknown}/${command.requestId}`,
    },
  ];
}

/**
 * A retry of the request that closed the case (the same X-Request-Id, caller, resolution and note,
 * resent after a 503 or a lost connection hid the answer) is answered with what it did, as every write
 * route answers a repeat. Anything else on a closed case, the same request id with another note
 * included, is told the case is closed.
 */
function isRepeatOfLastResolution(command: ResolveReview, state: OrderState): boolean {
  const last = state.lastResolution;
  return (
    last !== undefined &&
    last.requestId === command.requestId &&
    last.actor === command.actor &&
    last.resolution === command.resolution &&
    last.note === command.note
  );
}

/**
 * "Paid" is only true of money the provider holds (DESIGN.md §9.3: local state equals the provider's):
 * the order's own recorded payment if the provider shows it succeeded, else one of the amount ordered,
 * else the one of the amount support accepts (of two payments of other amounts, the one they chose),
 * else the first succeeded one it shows for the order. With none, the resolution is refused: 503 while
 * a request may still be executing there, 422 when a payment is still processing or there is none.
 */
function paymentThatPaid(
  command: ResolveReview,
  check: ProviderCheck,
  state: OrderState,
): NonNullable<ChargeReviewResolved['data']['payment']> {
  const { orderId, acceptedAmount } = command;
  const succeeded = check.succeededPayments ?? [];
  const payment =
    succeeded.find((p) => p.paymentIntentId === state.paymentIntentId) ??
    succeeded.find((p) => p.amount === state.amount && p.currency === state.currency) ??
    succeeded.find((p) => p.amount === acceptedAmount && p.currency === state.currency) ??
    succeeded[0];
  if (payment) {
    return {
      paymentIntentId: payment.paymentIntentId,
      ...(payment.chargeId ? { providerChargeId: payment.chargeId } : {}),
      amount: payment.amount,
      currency: payment.currency,
    };
  }
  if (check.unanswered.length > 0) throw providerUnverified(orderId, check);
  if (check.pending.length > 0) {
    throw new AppError(
      'unprocessable',
      'ORDER.PROVIDER_PAYMENT_PENDING',
      `The provider's payment for order ${orderId} is still processing (${check.pending.join(', ')}): it cannot be resolved as paid yet`,
      { pending: check.pending },
    );
  }
  throw new AppError(
    'unprocessable',
    'ORDER.PROVIDER_HOLDS_NO_CHARGE',
    `The provider holds no succeeded payment for order ${orderId}: it cannot be resolved as paid`,
    {},
  );
}

/**
 * A payment of another amount than ordered (999 taken for an order of 1250) does not make the order
 * paid by itself: the ledger would show one amount and the order another, without a word. It is
 * refused, naming both, unless support accepts that very amount (`acceptedAmount`); then the
 * resolution records the amount ordered beside the payment (returned here). A payment in another
 * currency is refused whatever is accepted: it is refunded, not reinterpreted.
 */
function acceptedDifference(
  command: ResolveReview,
  state: OrderState,
  payment: NonNullable<ChargeReviewResolved['data']['payment']>,
): number | undefined {
  if (payment.amount === state.amount && payment.currency === state.currency) return undefined;
  const sameCurrency = payment.currency === state.currency;
  if (sameCurrency && command.acceptedAmount === payment.amount) return state.amount;
  const paid = `${payment.amount} ${payment.currency}`;
  const ordered = `${state.amount} ${state.currency}`;
  const remedy = sameCurrency
    ? `send acceptedAmount: ${payment.amount} to resolve it as paid with that amount, or refund it`
    : 'a payment in another currency cannot be accepted: refund it';
  throw new AppError(
    'unprocessable',
    'ORDER.PAYMENT_AMOUNT_MISMATCH',
    `The provider's payment ${payment.paymentIntentId} for order ${command.orderId} is ${paid} (minor units) but the order is for ${ordered}: ${remedy}`,
    {
      ordered: { amount: state.amount, currency: state.currency },
      paid: { paymentIntentId: payment.paymentIntentId, amount: payment.amount, currency: payment.currency },
      ...(command.acceptedAmount !== undefined ? { acceptedAmount: command.acceptedAmount } : {}),
    },
  );
}

const providerUnverified = (orderId: string, check: ProviderCheck) =>
  new AppError(
    'unavailable',
    'ORDER.PROVIDER_UNVERIFIED',
    `The provider could not confirm the outcome under ${check.unanswered.join(', ')}; try again later`,
    {
      keys: check.unanswered,
      ...(check.retryAfterSeconds ? { retryAfterSeconds: check.retryAfterSeconds } : {}),
    },
  );

/**
 * "Failed" lets the customer request again, under a new provider key: only true if no key of the
 * order took (or may still take) the money, and the provider could answer for every one of them.
 */
function refuseWhileMoneyMayHaveMoved(orderId: string, check: ProviderCheck): void {
  if (check.succeeded.length > 0 || check.pending.length > 0) {
    const intents = [...check.succeeded, ...check.pending];
    throw new AppError(
      'unprocessable',
      'ORDER.PROVIDER_HOLDS_CHARGE',
      `The provider holds ${check.succeeded.length ? 'a succeeded' : 'a pending'} payment for order ${orderId} (${intents.join(', ')}): it cannot be resolved as failed`,
      { succeeded: check.succeeded, pending: check.pending },
    );
  }
  if (check.unanswered.length > 0) throw providerUnverified(orderId, check);
}
