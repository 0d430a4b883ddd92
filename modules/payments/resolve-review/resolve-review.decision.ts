/**
 * ResolveReview: a support person closes a needs-review case with a note, saying whether the order
 * is to be treated as paid or as failed (after checking the provider's dashboard, the customer…).
 */
import type { NewEvent } from '../../../src/command-handling/decider';
import { AppError } from '../../../src/errors/app-error';
import type { OrderEvent } from '../order.events';
import type { OrderState } from '../order.state';

export interface ResolveReview {
  orderId: string;
  actor: string;
  note: string;
  resolution: 'paid' | 'failed';
  /** The HTTP request's id: two people resolving at once must conflict, not look like one retry. */
  requestId: string;
}

export function decideResolveReview(command: ResolveReview, state: OrderState): NewEvent<OrderEvent>[] {
  if (!state.exists) throw new AppError('not_found', 'ORDER.NOT_FOUND', `No charge was ever requested for order ${command.orderId}`);
  if (state.status !== 'needs_review') {
    throw new AppError('unprocessable', 'ORDER.NOT_IN_REVIEW', `Order ${command.orderId} is ${state.status}, not waiting for review`, { orderStatus: state.status });
  }
  return [
    {
      event: { type: 'ChargeReviewResolved', data: { orderId: command.orderId, actor: command.actor, note: command.note, resolution: command.resolution } },
      // With the request id in the event id, a second resolution decided on the same state is a
      // conflict (its author re-reads and is told the case is closed) rather than an idempotent
      // re-append of the first, which would answer 200 with a decision the stream does not hold.
      key: `review-resolved/r${state.requestNumber}/${state.attempts}/${state.consecutiveUnknown}/${command.requestId}`,
    },
  ];
}
