/**
 * ResolveReview: a support person closes a needs-review case with a note, saying whether the order
 * is to be treated as paid or as failed (after checking the provider's dashboard, the customer…).
 */
import type { NewEvent } from '../../../src/command-handling/decider';
import { AppError } from '../../../src/errors/app-error';
import type { OrderEvent } from '../order.events';
import type { OrderState } from '../order.state';
import type { ProviderCheck } from './provider-check';

export interface ResolveReview {
  orderId: string;
  actor: string;
  note: string;
  resolution: 'paid' | 'failed';
  /** The HTTP request's id: two people resolving at once must conflict, not look like one retry. */
  requestId: string;
  /** What the provider holds for the order across every key it used; required to resolve as failed. */
  providerCheck?: ProviderCheck;
}

export function decideResolveReview(command: ResolveReview, state: OrderState): NewEvent<OrderEvent>[] {
  if (!state.exists) throw new AppError('not_found', 'ORDER.NOT_FOUND', `No charge was ever requested for order ${command.orderId}`);
  if (state.status !== 'needs_review') {
    throw new AppError('unprocessable', 'ORDER.NOT_IN_REVIEW', `Order ${command.orderId} is ${state.status}, not waiting for review`, {
      orderStatus: state.status,
    });
  }
  if (command.resolution === 'failed') refuseWhileMoneyMayHaveMoved(command);
  return [
    {
      event: {
        type: 'ChargeReviewResolved',
        data: { orderId: command.orderId, actor: command.actor, note: command.note, resolution: command.resolution },
      },
      // With the request id in the event id, a second resolution decided on the same state is a
      // conflict (its author re-reads and is told the case is closed) rather than an idempotent
      // re-append of the first, which would answer 200 with a decision the stream does not hold.
      key: `review-resolved/r${state.requestNumber}/${state.attempts}/${state.consecutiveUnknown}/${command.requestId}`,
    },
  ];
}

/**
 * "Failed" lets the customer request again, under a new provider key: only true if no key of the
 * order took (or may still take) the money, and the provider could answer for every one of them.
 */
function refuseWhileMoneyMayHaveMoved(command: ResolveReview): void {
  const check = command.providerCheck;
  // The order went into review after the caller looked: ask again.
  if (!check)
    throw new AppError('conflict', 'ORDER.PROVIDER_CHECK_STALE', `Order ${command.orderId} changed while it was being checked; try again`);
  if (check.succeeded.length > 0 || check.pending.length > 0) {
    const intents = [...check.succeeded, ...check.pending];
    throw new AppError(
      'unprocessable',
      'ORDER.PROVIDER_HOLDS_CHARGE',
      `The provider holds ${check.succeeded.length ? 'a succeeded' : 'a pending'} payment for order ${command.orderId} (${intents.join(', ')}): it cannot be resolved as failed`,
      { succeeded: check.succeeded, pending: check.pending },
    );
  }
  if (check.unanswered.length > 0) {
    throw new AppError(
      'unavailable',
      'ORDER.PROVIDER_UNVERIFIED',
      `The provider could not confirm the outcome under ${check.unanswered.join(', ')}; try again later`,
      { keys: check.unanswered, ...(check.retryAfterSeconds ? { retryAfterSeconds: check.retryAfterSeconds } : {}) },
    );
  }
}
