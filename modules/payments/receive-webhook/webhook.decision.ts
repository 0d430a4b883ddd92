/**
 * What a provider webhook may change: only forward transitions. A `succeeded` webhook can close an
 * order whose outcome we do not know yet; nothing moves a paid order back; a failure only counts for
 * the request whose provider key it carries.
 */
import type { OrderEvent } from '../order.events';
import type { OrderState } from '../order.state';
import type { ProviderPayment } from '../payment-gateway/payment-gateway.port';

export function decideWebhook(state: OrderState, payment: ProviderPayment): OrderEvent | undefined {
  if (!state.exists) return undefined;
  const orderId = state.orderId;
  if (payment.status === 'succeeded') {
    if (state.status === 'paid' || state.status === 'needs_review') return undefined;
    if (state.status === 'failed') {
      return { type: 'ChargeNeedsReview', data: { orderId, reason: `provider reports payment ${payment.paymentIntentId} succeeded, but the order is recorded as failed` } };
    }
    if (payment.amount !== state.amount || payment.currency !== state.currency) {
      return { type: 'ChargeNeedsReview', data: { orderId, reason: `provider payment ${payment.paymentIntentId} is ${payment.amount} ${payment.currency}, the order is ${state.amount} ${state.currency}` } };
    }
    return {
      type: 'ChargeSucceeded',
      data: { orderId, paymentIntentId: payment.paymentIntentId, providerChargeId: payment.chargeId, amount: payment.amount, currency: payment.currency, recovered: true },
    };
  }
  if (payment.status === 'failed' && payment.providerKey === state.providerKey && (state.status === 'processing' || state.status === 'unknown')) {
    return { type: 'ChargeFailed', data: { orderId, attempt: state.attempts, declineCode: payment.declineCode ?? 'card_declined', reason: 'declined (provider webhook)', paymentIntentId: payment.paymentIntentId } };
  }
  return undefined;
}
