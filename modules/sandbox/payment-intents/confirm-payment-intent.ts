import { newChargeId, newClientSecret, newPaymentIntentId } from '../stripe-ids';
import type { StripeErrorBody } from '../api/stripe-errors';
import type { CreateIntentRequest } from './create-params';
import { declineFor } from './decline-rule';
import type { PaymentIntent } from './payment-intent';

export interface Confirmation {
  intent: PaymentIntent;
  status: 200 | 402;
  body: PaymentIntent | StripeErrorBody;
}

/**
 * Creates and confirms an intent in one step, as `confirm=true` does at Stripe. Every confirmation
 * creates a charge (`latest_charge`), a declined one too. A decline is answered the way Stripe answers
 * it: HTTP 402 with a `card_error` that embeds the intent, so stripe-node raises `StripeCardError`.
 */
export function confirmPaymentIntent(request: CreateIntentRequest, nowSeconds: number, orderAlreadyCharged: boolean): Confirmation {
  const id = newPaymentIntentId();
  const chargeId = newChargeId();
  const decline = declineFor(request, orderAlreadyCharged);
  const base: PaymentIntent = {
    id,
    object: 'payment_intent',
    amount: request.amount,
    amount_capturable: 0,
    amount_received: decline ? 0 : request.amount,
    capture_method: 'automatic',
    client_secret: newClientSecret(id),
    confirmation_method: 'automatic',
    created: nowSeconds,
    currency: request.currency,
    customer: request.customer,
    description: request.description,
    last_payment_error: null,
    latest_charge: chargeId,
    livemode: false,
    metadata: request.metadata,
    payment_method: request.paymentMethod,
    payment_method_types: request.paymentMethodTypes,
    status: 'succeeded',
  };
  if (!decline) return { intent: base, status: 200, body: base };

  const lastPaymentError = {
    type: 'card_error' as const,
    code: 'card_declined' as const,
    decline_code: decline.declineCode,
    message: decline.message,
    charge: chargeId,
    doc_url: 'https://stripe.com/docs/error-codes/card-declined',
    payment_method: { id: request.paymentMethod, object: 'payment_method' as const, type: 'card' as const },
  };
  // Stripe detaches the failed payment method so that the customer can try another one.
  const intent: PaymentIntent = {
    ...base,
    status: 'requires_payment_method',
    payment_method: null,
    last_payment_error: lastPaymentError,
  };
  return { intent, status: 402, body: { error: { ...lastPaymentError, payment_intent: intent } } };
}
