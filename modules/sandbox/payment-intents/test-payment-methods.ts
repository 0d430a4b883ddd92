import { stripeTestCard } from './stripe-test-cards';

/**
 * Stripe's own test PaymentMethods that the sandbox knows by name, beside the ones it makes itself when a
 * test method is attached to a customer. Any other id is refused as Stripe refuses an id it does not
 * hold: 400 `resource_missing`, "No such PaymentMethod" (see unknown-payment-method.ts).
 *
 * - `pm_card_…`: the test cards Stripe documents, and only those (stripe-test-cards.ts, each with its
 *   section of docs.stripe.com/testing); `pm_card_visaa` is no more a test card at Stripe than here.
 * - SEPA Direct Debit test tokens that stay `processing` "after at least three minutes"
 *   (docs.stripe.com/payments/sepa-debit/accept-a-payment, "Test your integration", table DE: IBAN
 *   DE08370400440532013003 = `pm_successDelayed_de`, "The PaymentIntent status transitions from
 *   `processing` to `succeeded` after at least three minutes"; DE78370400440532013004 =
 *   `pm_failedDelayed_de`, "… from `processing` to `requires_payment_method` after at least three
 *   minutes"). Stripe settles them by itself after that delay; the sandbox keeps them `processing` until
 *   the control API settles them (`POST /_sandbox/payment_intents/:id/settle`), so that a test decides
 *   when the bank answers instead of waiting on a timer: "at least three minutes" sets no upper bound.
 */
export type DebitOutcome = 'succeeded' | 'failed';

export interface DelayedSepaDebit {
  /** What the bank answers once the delay is over. */
  outcome: DebitOutcome;
  /** The test IBAN behind the token (its country and last four digits show on the PaymentMethod). */
  iban: string;
}

export const DELAYED_SEPA_DEBITS: Readonly<Record<string, DelayedSepaDebit>> = {
  pm_successDelayed_de: { outcome: 'succeeded', iban: 'DE08370400440532013003' },
  pm_failedDelayed_de: { outcome: 'failed', iban: 'DE78370400440532013004' },
};

export function delayedSepaDebit(testMethod: string): DelayedSepaDebit | undefined {
  return Object.hasOwn(DELAYED_SEPA_DEBITS, testMethod) ? DELAYED_SEPA_DEBITS[testMethod] : undefined;
}

export function isStripeTestPaymentMethod(id: string): boolean {
  return stripeTestCard(id) !== undefined || delayedSepaDebit(id) !== undefined;
}
