/**
 * Amounts Stripe refuses for their granularity or size, beyond its minimum charge (minimum-charge.ts). Source:
 * docs.stripe.com/currencies (https://docs.stripe.com/currencies#special-cases, #three-decimal and
 * #minimum-and-maximum-charge-amounts) and Stripe's support notice on ISK (below).
 */
import { invalidRequest, type StripeErrorResponse } from '../api/stripe-errors';

/** docs.stripe.com/currencies#three-decimal: "Three-decimal currencies: BHD, JOD, KWD, OMR, TND". */
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/**
 * docs.stripe.com/currencies#minimum-and-maximum-charge-amounts: "The amount value supports up to twelve digits for
 * IDR (for example, a value of 999999999999 …), and up to eight digits for all other currencies (for example, a value
 * of 99999999 for a charge of 999,999.99 USD)." stripe-node's PaymentIntent `amount` says the same for USD.
 */
export function maximumAmountOf(currency: string): number {
  return currency === 'idr' ? 999_999_999_999 : 99_999_999;
}

/**
 * ISK: since 2023-04-14 "the Stripe API will enforce that all amounts in ISK are stated in multiples of 100", and
 * answers otherwise, word for word, "400 invalid_charge_amount_no_decimal_compatible: Invalid amount. Currency ISK has
 * become effectively zero-decimal and charged amounts must be evenly divisible by 100. See
 * https://stripe.com/docs/currencies#special-cases for more information."
 * (https://support.stripe.com/questions/deprecation-of-fractional-isk-charges-and-refunds; docs.stripe.com/currencies,
 * "Special cases": "The `amount` value must be evenly divisible by 100 … You can't charge fractions of ISK"). The
 * notice gives status, code and message; `param: amount` is the sandbox's, as on Stripe's other amount errors.
 *
 * Three-decimal currencies: "these API calls require the least-significant (last) digit to be 0. Your integration
 * must round amounts to the nearest ten. For example, 5.124 KWD must be rounded to 5120 or 5130"
 * (docs.stripe.com/currencies#three-decimal). Stripe does not print that refusal: the code `invalid_charge_amount`
 * (one of Stripe's error codes, stripe-node `PaymentIntent.LastPaymentError.Code`) and the message are the
 * sandbox's, modelled on the ISK answer; the status, type and refusal are Stripe's rule.
 */
export function amountStepProblem(amount: number, currency: string): StripeErrorResponse | undefined {
  if (currency === 'isk' && amount % 100 !== 0) {
    return invalidRequest(
      'Invalid amount. Currency ISK has become effectively zero-decimal and charged amounts must be evenly divisible by ' +
        '100. See https://stripe.com/docs/currencies#special-cases for more information.',
      'amount',
      'invalid_charge_amount_no_decimal_compatible',
    );
  }
  if (THREE_DECIMAL.has(currency) && amount % 10 !== 0) {
    return invalidRequest(
      `Invalid amount. Amounts in ${currency.toUpperCase()} must have 0 as their last (least-significant) digit. ` +
        'See https://stripe.com/docs/currencies#three-decimal for more information.',
      'amount',
      'invalid_charge_amount',
    );
  }
  return undefined;
}
