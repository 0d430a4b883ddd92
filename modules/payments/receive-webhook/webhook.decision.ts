/**
 * What a provider webhook may change: only forward transitions. A `succeeded` webhook can close an
 * order whose outcome we do not know yet — but only for the charge Idem asked for: the order's own
 * id and its current provider key (both in the intent's metadata). Anything else that succeeded (a
 * charge made outside Idem, one under an earlier request's key, one after the order was recorded as
 * failed, a second one after it was paid) is money we did not expect to move, so the order goes to
 * review and a human looks at it (DESIGN §7.5, contradictory provider data). Nothing moves a paid or
 * failed order back to an earlier state; a failure only counts for the request whose provider key it
 * carries.
 */
import type { ChargeNeedsReview, OrderEvent } from '../order.events';
import type { OrderState } from '../order.state';
import { contradictionOf } from '../payment-contradiction';
import type { ProviderPayment } from '../payment-gateway/payment-gateway.port';

export function decideWebhook(state: OrderState, payment: ProviderPayment): OrderEvent | undefined {
  if (!state.exists) return undefined;
  if (payment.status === 'succeeded') return decideSucceeded(state, payment);
  if (
    payment.status === 'failed' &&
    payment.providerKey === state.providerKey &&
    (state.status === 'processing' || state.status === 'unknown')
  ) {
    return {
      type: 'ChargeFailed',
      data: {
        orderId: state.orderId,
        attempt: state.attempts,
        declineCode: payment.declineCode ?? 'card_declined',
        reason: 'declined (provider webhook)',
        paymentIntentId: payment.paymentIntentId,
      },
    };
  }
  return undefined;
}

function decideSucceeded(state: OrderState, payment: ProviderPayment): OrderEvent | undefined {
  const intent = payment.paymentIntentId;
  if (state.status === 'needs_review') {
    // Already in a person's hands, but the money this payment took must be in front of them: named, the
    // check before they resolve the case finds it (resolving as failed is then refused). Once is enough.
    if (state.namedPaymentIntentIds.includes(intent)) return undefined;
    return review(state, `provider reports payment ${intent} succeeded ${madeUnder(payment)} while the order waits for review`, intent);
  }
  if (state.status === 'paid') {
    const secondCharge = secondChargeOfPaidOrder(state, payment);
    return secondCharge ? review(state, secondCharge, intent) : undefined;
  }
  if (state.status === 'failed')
    return review(state, `provider reports payment ${intent} succeeded, but the order is recorded as failed`, intent);
  if (payment.orderId !== state.orderId || payment.providerKey !== state.providerKey) {
    return review(
      state,
      `provider reports payment ${intent} for order ${payment.orderId ?? '(none)'} succeeded ${madeUnder(payment)}; the order's current request uses key ${state.providerKey}`,
      intent,
    );
  }
  const contradiction = contradictionOf(state, payment);
  if (contradiction) return review(state, contradiction, intent);
  return {
    type: 'ChargeSucceeded',
    data: {
      orderId: state.orderId,
      paymentIntentId: intent,
      providerChargeId: payment.chargeId,
      amount: payment.amount,
      currency: payment.currency,
      recovered: true,
    },
  };
}

const madeUnder = (payment: ProviderPayment) =>
  payment.providerKey ? `under key ${payment.providerKey}` : 'without an Idem provider key (a charge made outside Idem)';

const review = (state: OrderState, reason: string, paymentIntentId: string): ChargeNeedsReview => ({
  type: 'ChargeNeedsReview',
  data: { orderId: state.orderId, reason, paymentIntentId },
});

/**
 * A succeeded payment under another intent than the one a paid order recorded: money moved twice for
 * one order (a charge made outside Idem, a second key's charge). Someone must refund one, so the
 * order goes to review with this reason: support sees it in its cases and in the order, where an
 * alert in one process's log and counter was all there was before.
 */
export function secondChargeOfPaidOrder(state: OrderState, payment: ProviderPayment): string | undefined {
  if (state.status !== 'paid' || payment.status !== 'succeeded' || payment.paymentIntentId === state.paymentIntentId) return undefined;
  // An order support resolved as paid records no intent: its own payment (the order's current key),
  // arriving late in a webhook Stripe retried, is that payment, not a second one.
  if (state.paymentIntentId === undefined && payment.orderId === state.orderId && payment.providerKey === state.providerKey)
    return undefined;
  return `provider reports a second succeeded payment ${payment.paymentIntentId} for order ${state.orderId}, already paid by ${state.paymentIntentId ?? '(unknown intent)'}: refund one`;
}
