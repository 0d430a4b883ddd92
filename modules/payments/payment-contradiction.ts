/**
 * When a payment the provider reports as succeeded cannot be this order's charge, whoever reports it
 * (the charge call, verification by search, a webhook): another amount, another currency, or another
 * customer's money. Recording it as the order's payment would mark the order paid with money that was
 * not the customer's order; a person looks instead (ChargeNeedsReview with this reason, DESIGN §7.5).
 */
import type { OrderState } from './order.state';
import type { ProviderPayment } from './payment-gateway/payment-gateway.port';

export function contradictionOf(state: OrderState, payment: ProviderPayment): string | undefined {
  const intent = payment.paymentIntentId;
  if (payment.amount !== state.amount || payment.currency !== state.currency) {
    return `provider payment ${intent} is ${payment.amount} ${payment.currency}, the order is ${state.amount} ${state.currency}`;
  }
  // An intent that names no customer says nothing either way (Idem always sends the order's customer).
  if (payment.customerId !== undefined && payment.customerId !== state.customerId) {
    return `provider payment ${intent} is customer ${payment.customerId}'s, the order is customer ${state.customerId}'s`;
  }
  return undefined;
}
