import type { OrderState, OrderStatus } from './order.state';

/** The order's payment state as the HTTP api shows it (DESIGN.md §6, GET /v1/orders/{orderId}). */
export interface OrderView {
  orderId: string;
  status: OrderStatus;
  amount: number;
  currency: string;
  customerId: string;
  providerChargeId?: string;
  paymentIntentId?: string;
  attempts: number;
  lastError?: string;
  lastAttemptAt?: string;
  updatedAt?: string;
  revision: number;
}

export function toOrderView(state: OrderState, revision: number): OrderView {
  return {
    orderId: state.orderId,
    status: state.status,
    amount: state.amount,
    currency: state.currency,
    customerId: state.customerId,
    ...(state.providerChargeId ? { providerChargeId: state.providerChargeId } : {}),
    ...(state.paymentIntentId ? { paymentIntentId: state.paymentIntentId } : {}),
    attempts: state.attempts,
    ...(state.lastError ? { lastError: state.lastError } : {}),
    ...(state.lastAttemptAt ? { lastAttemptAt: state.lastAttemptAt } : {}),
    ...(state.updatedAt ? { updatedAt: state.updatedAt } : {}),
    revision,
  };
}
