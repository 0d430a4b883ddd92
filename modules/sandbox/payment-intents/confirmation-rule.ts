import { stripeTestCard, type DeclineErrorCode } from './stripe-test-cards';
import { delayedSepaDebit } from './test-payment-methods';

/**
 * What confirming a PaymentIntent does here, decided only by the request so that tests can ask for an
 * outcome on purpose (documented in modules/sandbox/README.md). The payment methods are Stripe's own
 * test payment methods (stripe-test-cards.ts, from docs.stripe.com/testing), whose behaviour is copied:
 * - decline methods: 402 with their error code (`card_declined`, `expired_card`, …) and decline code;
 * - 3-D Secure methods: off-session, Stripe cannot ask the customer, so the confirmation fails with
 *   402 `authentication_required` (docs.stripe.com/payments/save-and-reuse "Charge the saved payment
 *   method later": "the PaymentIntent fails and a 402 … `authentication_required`"); on-session it
 *   answers 200 `requires_action` with a `next_action` for the customer;
 * - SEPA Direct Debit test tokens that settle late (`pm_successDelayed_de`, `pm_failedDelayed_de`, see
 *   test-payment-methods.ts) leave the intent `processing`, as bank debits do (spec3.json
 *   `payment_intent.status`), until the control API settles it.
 * Every other test card succeeds, whatever the amount: Stripe has no card amount that declines (a
 * decline is asked for with a declining test method, or a customer whose saved card was made from
 * one). A second charge for the same order under a new key succeeds too, as at Stripe: nothing at
 * Stripe refuses it (docs.stripe.com/api/idempotent_requests: only the key dedupes).
 */
export type ConfirmationResult =
  | { kind: 'succeeded' }
  | { kind: 'processing' }
  | { kind: 'requires_action' }
  | { kind: 'declined'; code: DeclineErrorCode | 'authentication_required'; declineCode: string; message: string };

export function confirmationResultFor(request: { paymentMethod: string; offSession: boolean }): ConfirmationResult {
  if (delayedSepaDebit(request.paymentMethod)) return { kind: 'processing' };
  const card = stripeTestCard(request.paymentMethod);
  switch (card?.kind) {
    case 'authenticates':
      if (!request.offSession) return { kind: 'requires_action' };
      // Stripe's off-session answer: code and decline_code both `authentication_required`.
      return {
        kind: 'declined',
        code: 'authentication_required',
        declineCode: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
      };
    case 'authenticates_on_session':
      return request.offSession ? { kind: 'succeeded' } : { kind: 'requires_action' };
    case 'declines':
      return { kind: 'declined', code: card.code, declineCode: card.declineCode, message: DECLINE_MESSAGES[card.declineCode] ?? DECLINED };
    default:
      return { kind: 'succeeded' };
  }
}

const DECLINED = 'Your card was declined.';

/** Stripe's messages for these codes (docs.stripe.com/declines/codes); the others read "Your card was declined.". */
const DECLINE_MESSAGES: Record<string, string> = {
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  processing_error: 'An error occurred while processing your card. Try again in a little bit.',
};
