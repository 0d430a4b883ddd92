import { delayedSepaDebit } from './test-payment-methods';

/**
 * What confirming a PaymentIntent does here, decided only by the request so that tests can ask for an
 * outcome on purpose (documented in modules/sandbox/README.md). The payment methods are Stripe's own
 * test payment methods (docs.stripe.com/testing: "Declined payments", "Authentication and setup"),
 * whose behaviour is copied:
 * - decline methods: 402 `card_declined` with their decline code;
 * - 3-D Secure methods: off-session, Stripe cannot ask the customer, so the confirmation fails with
 *   402 `authentication_required` (docs.stripe.com/payments/save-and-reuse "Charge the saved payment
 *   method later": "the PaymentIntent fails and a 402 … `authentication_required`"); on-session it
 *   answers 200 `requires_action` with a `next_action` for the customer;
 * - SEPA Direct Debit test tokens that settle late (`pm_successDelayed_de`, `pm_failedDelayed_de`, see
 *   test-payment-methods.ts) leave the intent `processing`, as bank debits do (spec3.json
 *   `payment_intent.status`), until the control API settles it.
 * Everything else succeeds, whatever the amount: Stripe has no card amount that declines (a decline is asked
 * for with a declining test method, or a customer whose saved card was made from one). A second charge for the same order under a new key succeeds too, as at
 * Stripe: nothing at Stripe refuses it (docs.stripe.com/api/idempotent_requests: only the key dedupes).
 */
const DECLINING_PAYMENT_METHODS: Record<string, string> = {
  pm_card_chargeDeclined: 'generic_decline',
  pm_card_visa_chargeDeclined: 'generic_decline',
  pm_card_chargeDeclinedInsufficientFunds: 'insufficient_funds',
  pm_card_visa_chargeDeclinedInsufficientFunds: 'insufficient_funds',
  pm_card_chargeDeclinedLostCard: 'lost_card',
  pm_card_visa_chargeDeclinedLostCard: 'lost_card',
  pm_card_chargeDeclinedStolenCard: 'stolen_card',
  pm_card_visa_chargeDeclinedStolenCard: 'stolen_card',
  pm_card_chargeDeclinedFraudulent: 'fraudulent',
  pm_card_visa_chargeDeclinedFraudulent: 'fraudulent',
};

/** Stripe's test methods (and card numbers) that require 3-D Secure on every payment. */
export const AUTHENTICATION_PAYMENT_METHODS = new Set([
  'pm_card_authenticationRequired', // 4000 0027 6000 3184
  'pm_card_authenticationRequiredChargeDeclinedInsufficientFunds', // 4000 0082 6000 3178
  'pm_card_threeDSecure2Required', // 4000 0000 0000 3220
  'pm_card_threeDSecureRequired', // 4000 0000 0000 3063
]);

export type ConfirmationResult =
  | { kind: 'succeeded' }
  | { kind: 'processing' }
  | { kind: 'requires_action' }
  | { kind: 'declined'; code: 'card_declined' | 'authentication_required'; declineCode: string; message: string };

export function confirmationResultFor(request: { paymentMethod: string; offSession: boolean }): ConfirmationResult {
  if (AUTHENTICATION_PAYMENT_METHODS.has(request.paymentMethod)) {
    if (!request.offSession) return { kind: 'requires_action' };
    // Stripe's off-session answer: code and decline_code both `authentication_required`.
    return {
      kind: 'declined',
      code: 'authentication_required',
      declineCode: 'authentication_required',
      message: 'Your card was declined. This transaction requires authentication.',
    };
  }
  if (delayedSepaDebit(request.paymentMethod)) return { kind: 'processing' };
  const byPaymentMethod = DECLINING_PAYMENT_METHODS[request.paymentMethod];
  if (byPaymentMethod) return declined(byPaymentMethod);
  return { kind: 'succeeded' };
}

function declined(declineCode: string): ConfirmationResult {
  const message = declineCode === 'insufficient_funds' ? 'Your card has insufficient funds.' : 'Your card was declined.';
  return { kind: 'declined', code: 'card_declined', declineCode, message };
}
