/**
 * The command path of `order-<orderId>`: every use case that changes an order (the charge request,
 * the worker's steps, the webhook, recovery, the review resolution) loads, decides and appends through
 * this one handler, passing its own decision.
 */
import { commandHandler } from '../../src/command-handling/command-handler';
import { orderStream, type OrderEvent } from './order.events';
import { evolveOrder, initialOrderState, type OrderState } from './order.state';

export const orderCommands = commandHandler<OrderState, OrderEvent>({
  initialState: initialOrderState,
  evolve: evolveOrder,
  streamOf: orderStream,
});
