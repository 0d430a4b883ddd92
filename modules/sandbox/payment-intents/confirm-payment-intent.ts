import { newChargeId, newClientSecret, newPaymentIntentId } from '../stripe-ids';
import type { StripeErrorBody } from '../api/stripe-errors';
import type { CreateIntentRequest } from './create-params';
import { confirmationResultFor } from './confirmation-rule';
import type { NextAction, PaymentIntent } from './payment-intent';
import { paymentMethodObject } from './payment-method-object';
import { delayedSepaDebit } from './test-payment-methods';

export interface Confirmation {
  intent: PaymentIntent;
  status: 200 | 402;
  body: PaymentIntent | StripeErrorBody;
}

/**
 * Creates an intent, and confirms it in the same step when asked to, as `confirm=true` does at Stripe.
 * Without confirm nothing is charged: the intent waits in `requires_confirmation`, or in
 * `requires_payment_method` when it has none (spec3.json `payment_intent.status`;
 * docs.stripe.com/payments/paymentintents/lifecycle: "When the PaymentIntent is created, it has a status
 * of `requires_payment_method` until a payment method is attached"). A confirmation that
 * reached the card network has a charge (`latest_charge`), a declined one too. A decline is answered
 * the way Stripe answers it: HTTP 402 with a `card_error` that embeds the intent, so stripe-node
 * raises `StripeCardError` (spec3.json `error` → `api_errors`: `payment_intent`, `payment_method`).
 * `chargedAs`: the test method a customer's saved PaymentMethod was made from, whose rules it follows.
 */
export function confirmPaymentIntent(request: CreateIntentRequest, nowSeconds: number, chargedAs = request.paymentMethod): Confirmation {
  const id = newPaymentIntentId();
  const result = request.confirm && chargedAs !== null ? confirmationResultFor({ ...request, paymentMethod: chargedAs }) : undefined;
  const charged =
    result?.kind === 'succeeded' ||
    result?.kind === 'processing' ||
    (result?.kind === 'declined' && result.code !== 'authentication_required');
  const chargeId = charged ? newChargeId() : null;
  const base: PaymentIntent = {
    id,
    object: 'payment_intent',
    amount: request.amount,
    amount_capturable: 0,
    amount_received: result?.kind === 'succeeded' ? request.amount : 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: request.automaticPaymentMethods,
    canceled_at: null,
    cancellation_reason: null,
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
    next_action: null,
    on_behalf_of: null,
    payment_method: request.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: paymentMethodTypesFor(request, chargedAs),
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
  if (result === undefined)
    return answered({ ...base, status: request.paymentMethod === null ? 'requires_payment_method' : 'requires_confirmation' });
  if (result.kind === 'succeeded') return { intent: base, status: 200, body: base };
  if (result.kind === 'processing') return answered({ ...base, status: 'processing' });
  if (result.kind === 'requires_action')
    return answered({ ...base, status: 'requires_action', next_action: nextActionFor(id, request.returnUrl) });

  const lastPaymentError = {
    type: 'card_error' as const,
    code: result.code,
    decline_code: result.declineCode,
    message: result.message,
    ...(chargeId !== null && { charge: chargeId }),
    doc_url: `https://stripe.com/docs/error-codes/${result.code.replace(/_/g, '-')}`,
    payment_method: paymentMethodObject(request.paymentMethod ?? '', request.customer, nowSeconds, chargedAs ?? undefined),
  } as PaymentIntent['last_payment_error'] & object;
  // Stripe detaches the failed payment method so that the customer can try another one.
  const intent: PaymentIntent = { ...base, status: 'requires_payment_method', payment_method: null, last_payment_error: lastPaymentError };
  return { intent, status: 402, body: { error: { ...lastPaymentError, payment_intent: intent } } };
}

/**
 * With automatic payment methods the intent lists the types it may be paid with; cards here, and
 * `sepa_debit` too when it is paid with a SEPA Direct Debit account (which Stripe accepts only where the
 * account enabled that type, so the intent lists it).
 */
function paymentMethodTypesFor(request: CreateIntentRequest, chargedAs: string | null): string[] {
  const sepa = chargedAs !== null && delayedSepaDebit(chargedAs) !== undefined;
  if (request.automaticPaymentMethods === null || !sepa || request.paymentMethodTypes.includes('sepa_debit'))
    return request.paymentMethodTypes;
  return [...request.paymentMethodTypes, 'sepa_debit'];
}

function answered(intent: PaymentIntent): Confirmation {
  return { intent, status: 200, body: intent };
}

/** spec3.json `payment_intent_next_action`: a redirect when the caller gave a `return_url`, else Stripe.js. */
function nextActionFor(intentId: string, returnUrl: string | null): NextAction {
  if (returnUrl !== null) {
    return {
      type: 'redirect_to_url',
      redirect_to_url: { return_url: returnUrl, url: `https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=${intentId}` },
    };
  }
  return {
    type: 'use_stripe_sdk',
    use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `https://hooks.stripe.com/redirect/authenticate/${intentId}` },
  };
}
