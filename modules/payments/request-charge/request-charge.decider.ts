import type { Decider } from '../../../src/command-handling/decider';
import type { OrderEvent } from '../order.events';
import { evolveOrder, initialOrderState, type OrderState } from '../order.state';
import { decideRequestCharge, type RequestCharge } from './request-charge.decision';

export const requestChargeDecider: Decider<RequestCharge, OrderState, OrderEvent> = {
  initialState: initialOrderState,
  evolve: evolveOrder,
  decide: decideRequestCharge,
};
