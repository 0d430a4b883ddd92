import Stripe from 'stripe';
import type { ChargeOutcome } from './payment-gateway.port';

/**
 * What a failed create means. Declines are facts (money did not move); a decline for
 * `authentication_required` (an off-session charge of a card that needs 3-D Secure: 402, code and
 * decline code `authentication_required`, docs.stripe.com/payments/save-and-reuse) is one a person
 * must act on — a retry cannot authenticate; an invalid request needs a human; everything else
 * (timeouts, resets, 5xx, 409 key in use, 429) is unknown.
 */
export function classifyStripeError(error: unknown): ChargeOutcome {
  if (error instanceof Stripe.errors.StripeCardError) {
    const paymentIntentId = (error.payment_intent as { id?: string } | undefined)?.id;
    if (error.code === 'authentication_required' && paymentIntentId) {
      return {
        kind: 'action_required',
        paymentIntentId,
        reason: `authentication_required: the customer must authenticate (3-D Secure) on session; payment intent ${paymentIntentId}: ${error.message}`,
      };
    }
    return { kind: 'declined', declineCode: error.decline_code ?? error.code ?? 'card_declined', reason: error.message, paymentIntentId };
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400) {
    return { kind: 'rejected', reason: `${error.code ?? 'invalid_request'}: ${error.message}` };
  }
  const described = error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
  return { kind: 'unknown', error: described };
}
