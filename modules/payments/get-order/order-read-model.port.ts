import type { OrderView } from '../order.view';

/**
 * The orders read model as the api reads it (projections/orders implements it). It may lag behind
 * the stream by a few milliseconds; callers that must see their own write pass the revision they saw.
 */
export interface OrderReadModel {
  findOrder(orderId: string): Promise<OrderView | null>;
}

export const ORDER_READ_MODEL = Symbol('ORDER_READ_MODEL');
