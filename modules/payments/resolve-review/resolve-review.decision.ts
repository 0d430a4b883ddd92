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
}

export function decideResolveReview(command: ResolveReview, state: OrderState): NewEvent<OrderEvent>[] {
  if (!state.exists) throw new AppError('not_found', 'ORDER.NOT_FOUND', `No charge was ever requested for order ${command.orderId}`);
  if (state.status !== 'needs_review') {
    throw new AppError('unprocessable', 'ORDER.NOT_IN_REVIEW', `Order ${command.orderId} is ${state.status}, not waiting for review`, { orderStatus: state.status });
  }
  return [
    {
      event: { type: 'ChargeReviewResolved', data: { orderId: command.orderId, actor: command.actor, note: command.note, resolution: command.resolution } },
      key: `review-resolved/r${state.requestNumber}/${state.attempts}/${state.consecutiveUnknown}`,
    },
  ];
}
