import type Stripe from 'stripe';
import type { ProviderPayment } from './payment-gateway.port';

/** Our view of a Stripe PaymentIntent (also used for the intents inside webhook events). */
export function toProviderPayment(intent: Stripe.PaymentIntent): ProviderPayment {
  const status =
    intent.status === 'succeeded'
      ? 'succeeded'
      : intent.status === 'requires_payment_method' || intent.status === 'canceled'
        ? 'failed'
        : 'pending';
  return {
    paymentIntentId: intent.id,
    chargeId: typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id,
    status,
    amount: intent.amount,
    currency: intent.currency.toUpperCase(),
    orderId: intent.metadata?.order_id,
    customerId: (typeof intent.customer === 'string' ? intent.customer : intent.customer?.id) ?? undefined,
    providerKey: intent.metadata?.provider_key,
    declineCode: intent.last_payment_error?.decline_code ?? intent.last_payment_error?.code ?? undefined,
  };
}
