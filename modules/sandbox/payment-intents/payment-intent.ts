/**
 * A PaymentIntent in Stripe's wire shape (snake_case, unix seconds, lower-case currency): the fields of
 * spec3.json `components.schemas.payment_intent` that the sandbox fills, with `null` where Stripe sends
 * `null` for a feature not used. Only confirmed intents exist here: `succeeded`, `processing`,
 * `requires_action` (on-session 3-D Secure) or `requires_payment_method` after a decline.
 */
export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  application: null;
  application_fee_amount: null;
  automatic_payment_methods: { enabled: boolean; allow_redirects?: 'always' | 'never' } | null;
  canceled_at: null;
  cancellation_reason: null;
  capture_method: 'automatic';
  client_secret: string;
  confirmation_method: 'automatic';
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  last_payment_error: LastPaymentError | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Record<string, string>;
  next_action: NextAction | null;
  on_behalf_of: null;
  payment_method: string | null;
  payment_method_configuration_details: null;
  payment_method_options: Record<string, never>;
  payment_method_types: string[];
  processing: null;
  receipt_email: null;
  review: null;
  setup_future_usage: null;
  shipping: null;
  source: null;
  statement_descriptor: null;
  statement_descriptor_suffix: null;
  status: 'succeeded' | 'processing' | 'requires_action' | 'requires_confirmation' | 'requires_payment_method';
  transfer_data: null;
  transfer_group: null;
}

/** spec3.json `payment_intent_next_action`: what the customer must do (3-D Secure here). */
export type NextAction =
  | { type: 'redirect_to_url'; redirect_to_url: { return_url: string; url: string } }
  | { type: 'use_stripe_sdk'; use_stripe_sdk: Record<string, string> };

/** spec3.json `api_errors`, as Stripe embeds it in the intent and in the 402 body. */
export interface LastPaymentError {
  type: 'card_error';
  code: 'card_declined' | 'authentication_required';
  decline_code: string;
  message: string;
  charge: string;
  doc_url: string;
  payment_method: PaymentMethodObject;
}

/**
 * spec3.json `payment_method`: the whole object, as Stripe puts it in a decline, a card or a SEPA Direct
 * Debit account (`payment_method_sepa_debit`), one of the two by `type`.
 */
export type PaymentMethodObject = CardPaymentMethodObject | SepaDebitPaymentMethodObject;

interface PaymentMethodCommon {
  id: string;
  object: 'payment_method';
  billing_details: {
    address: Record<'city' | 'country' | 'line1' | 'line2' | 'postal_code' | 'state', null>;
    email: null;
    name: null;
    phone: null;
    tax_id: null;
  };
  created: number;
  customer: string | null;
  livemode: false;
  metadata: Record<string, string>;
}

export interface CardPaymentMethodObject extends PaymentMethodCommon {
  card: {
    brand: string;
    checks: { address_line1_check: null; address_postal_code_check: null; cvc_check: null };
    country: string;
    display_brand: string;
    exp_month: number;
    exp_year: number;
    fingerprint: string;
    funding: 'credit';
    generated_from: null;
    last4: string;
    networks: { available: string[]; preferred: null };
    regulated_status: 'unregulated';
    three_d_secure_usage: { supported: boolean };
    wallet: null;
  };
  type: 'card';
}

export interface SepaDebitPaymentMethodObject extends PaymentMethodCommon {
  sepa_debit: {
    bank_code: string;
    branch_code: string | null;
    country: string;
    fingerprint: string;
    generated_from: { charge: null; setup_attempt: null };
    last4: string;
  };
  type: 'sepa_debit';
}

export const ORDER_ID_METADATA_KEY = 'order_id';

/** What invariant 1 (DESIGN §9) counts at the provider: intents that took the customer's money. */
export function isSucceededCharge(intent: Pick<PaymentIntent, 'status'>): boolean {
  return intent.status === 'succeeded';
}

export function orderIdOf(intent: Pick<PaymentIntent, 'metadata'>): string | undefined {
  return intent.metadata[ORDER_ID_METADATA_KEY];
}
