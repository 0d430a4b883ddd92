/**
 * How many decimals Stripe's `amount` carries per currency (docs.stripe.com/currencies, "Minor units in API
 * amounts"). This is Stripe's rule, not ISO 4217's nor Intl's: HUF, TWD and ISK have no minor unit in daily use
 * (Intl shows 0 fraction digits) yet Stripe takes their charges in two-decimal units, so 175.00 Ft is 17500.
 */
/**
 * The largest `amount` Stripe takes, in the currency's minor unit: docs.stripe.com/currencies, "Minimum and maximum
 * charge amounts": "The amount value supports up to twelve digits for IDR (for example, a value of 999999999999 for a
 * charge of 9,999,999,999.99 IDR), and up to eight digits for all other currencies (for example, a value of 99999999
 * for a charge of 999,999.99 USD)." Eight digits of IDR would be under 1,000,000.00 Rp (about 60 USD).
 */
export function stripeMaximumAmountOf(currency: unknown): number {
  return currency === 'IDR' ? 999_999_999_999 : 99_999_999;
}

const ZERO_DECIMAL = new Set('BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' '));
const THREE_DECIMAL = new Set('BHD JOD KWD OMR TND'.split(' '));

/** The power of ten between the currency's major unit and Stripe's `amount` (2 for EUR: €0.50 is 50). */
export function stripeExponentOf(currency: string): number {
  if (ZERO_DECIMAL.has(currency)) return 0;
  return THREE_DECIMAL.has(currency) ? 3 : 2;
}

/**
 * The step Stripe's `amount` must be a multiple of, where it takes fewer values than its minor unit allows:
 * - ISK stays two-decimal in the API, but since 2023-04-14 Stripe refuses fractional krónur
 *   (support.stripe.com/questions/deprecation-of-fractional-isk-charges-and-refunds: "all amounts in ISK are
 *   stated in multiples of 100", else 400 `invalid_charge_amount_no_decimal_compatible`);
 * - the three-decimal currencies need their last digit to be 0 (docs.stripe.com/currencies, "Three-decimal
 *   currencies": "these API calls require the least-significant (last) digit to be 0").
 * Every other currency takes any whole number of its minor unit (1).
 */
export function stripeAmountStepOf(currency: string): number {
  if (currency === 'ISK') return 100;
  return THREE_DECIMAL.has(currency) ? 10 : 1;
}
