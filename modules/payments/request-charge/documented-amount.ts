/**
 * What the OpenAPI document says of a charge's `amount` and `currency` in a service that charges in these
 * currencies (IDEM_CURRENCIES): the rules the body's validators and the controller apply, stated for the
 * configured currencies instead of every code the runtime knows (src/openapi/configured-schema.ts).
 */
import { minimumChargeOf } from './minimum-charge';
import { stripeAmountStepOf, stripeMaximumAmountOf } from './stripe-minor-units';

export function documentedCurrency(currencies: readonly string[]): Record<string, unknown> {
  return {
    enum: [...currencies],
    description: `One of the currencies this service charges in (IDEM_CURRENCIES: ${currencies.join(', ')}); any other is a 400.`,
  };
}

export function documentedAmount(currencies: readonly string[]): Record<string, unknown> {
  const perCurrency = currencies.map((currency) => {
    const step = stripeAmountStepOf(currency);
    return `${currency} ${minimumChargeOf(currency)}–${stripeMaximumAmountOf(currency)}${step === 1 ? '' : ` in steps of ${step}`}`;
  });
  return {
    minimum: Math.min(...currencies.map(minimumChargeOf)),
    maximum: Math.max(...currencies.map(stripeMaximumAmountOf)),
    description:
      "In the currency's minor unit (1250 is 12.50 EUR), from Stripe's minimum charge in that currency to its largest " +
      `(a currency outside Stripe's minimum table is held to 1): ${perCurrency.join('; ')}. Any other amount is a 400.`,
  };
}
