/**
 * The PaymentIntent fields Idem relies on, in Stripe's wire shape (snake_case, unix seconds, lower-case
 * currency). Only confirmed intents exist here, so the status is always final for this sandbox:
 * `succeeded`, or `requires_payment_method` after a decline.
 */
export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
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
  payment_method: string | null;
  payment_method_types: string[];
  status: 'succeeded' | 'requires_payment_method';
}

export interface LastPaymentError {
  type: 'card_error';
  code: 'card_declined';
  decline_code: string;
  message: string;
  charge: string;
  doc_url: string;
  payment_method: { id: string; object: 'payment_method'; type: 'card' };
}

export const ORDER_ID_METADATA_KEY = 'order_id';

/**
 * The decline the sandbox gives a confirmation for an order that already holds a succeeded intent
 * (Stripe's own code for a repeated charge). The sandbox keeps at most one succeeded intent per
 * order, but a refused second charge is still Idem trying to charge twice.
 */
export const DUPLICATE_CHARGE_DECLINE = 'duplicate_transaction';

/**
 * What invariant 1 counts: confirmations that took the order's money, and those refused only
 * because the order had already paid. More than one per order means Idem tried to charge twice.
 */
export function isChargeAttempt(intent: Pick<PaymentIntent, 'status' | 'last_payment_error'>): boolean {
  return intent.status === 'succeeded' || intent.last_payment_error?.decline_code === DUPLICATE_CHARGE_DECLINE;
}

export function orderIdOf(intent: Pick<PaymentIntent, 'metadata'>): string | undefined {
  return intent.metadata[ORDER_ID_METADATA_KEY];
}
