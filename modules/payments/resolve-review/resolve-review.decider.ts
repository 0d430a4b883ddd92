import type { Decider } from '../../../src/command-handling/decider';
import type { OrderEvent } from '../order.events';
import { evolveOrder, initialOrderState, type OrderState } from '../order.state';
import { decideResolveReview, type ResolveReview } from './resolve-review.decision';

export const resolveReviewDecider: Decider<ResolveReview, OrderState, OrderEvent> = {
  initialState: initialOrderState,
  evolve: evolveOrder,
  decide: decideResolveReview,
};
