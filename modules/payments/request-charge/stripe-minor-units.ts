/**
 * How many decimals Stripe's `amount` carries per currency (docs.stripe.com/currencies, "Minor units in API
 * amounts"). This is Stripe's rule, not ISO 4217's nor Intl's: HUF, TWD and ISK have no minor unit in daily use
 * (Intl shows 0 fraction digits) yet Stripe takes their charges in two-decimal units, so 175.00 Ft is 17500.
 */
const ZERO_DECIMAL = new Set('BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' '));
const THREE_DECIMAL = new Set('BHD JOD KWD OMR TND'.split(' '));

/** The power of ten between the currency's major unit and Stripe's `amount` (2 for EUR: €0.50 is 50). */
export function stripeExponentOf(currency: string): number {
  if (ZERO_DECIMAL.has(currency)) return 0;
  return THREE_DECIMAL.has(currency) ? 3 : 2;
}
