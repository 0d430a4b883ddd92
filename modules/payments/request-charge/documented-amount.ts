/**
 * What the OpenAPI document says of a charge's `amount` and `currency` in a service that charges in these
 * currencies (IDEM_CURRENCIES): the rules the body's validators and the controller apply, stated for the
 * configured currencies instead of every code the runtime knows (src/openapi/configured-schema.ts).
 */
import { smallestChargeOf } from './minimum-charge';
import { stripeAmountStepOf, stripeMaximumAmountOf } from './stripe-minor-units';

export function documentedCurrency(currencies: readonly string[]): Record<string, unknown> {
  return {
    enum: [...currencies],
    description: `One of the currencies this service charges in (IDEM_CURRENCIES: ${currencies.join(', ')}); any other is a 400.`,
  };
}

/**
 * The smallest and largest amounts the body's rules accept in `currency`: Stripe's minimum charge and its
 * largest amount, each moved onto the currency's step (stripe-minor-units.ts). ISK, outside Stripe's
 * minimum table, would read 1–99999999, yet Stripe takes only whole krónur (multiples of 100): its range is
 * 100–99999900.
 */
export function acceptedAmountsOf(currency: string): { smallest: number; largest: number; step: number } {
  const step = stripeAmountStepOf(currency);
  return {
    smallest: smallestChargeOf(currency),
    largest: Math.floor(stripeMaximumAmountOf(currency) / step) * step,
    step,
  };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

export function documentedAmount(currencies: readonly string[]): Record<string, unknown> {
  const accepted = currencies.map((currency) => ({ currency, ...acceptedAmountsOf(currency) }));
  const perCurrency = accepted.map(
    ({ currency, smallest, largest, step }) => `${currency} ${smallest}–${largest}${step === 1 ? '' : ` in steps of ${step}`}`,
  );
  // Every amount any configured currency accepts is a multiple of this (100 where ISK is the only currency).
  const commonStep = accepted.map((a) => a.step).reduce(gcd, 0);
  return {
    minimum: Math.min(...accepted.map((a) => a.smallest)),
    maximum: Math.max(...accepted.map((a) => a.largest)),
    ...(commonStep > 1 ? { multipleOf: commonStep } : {}),
    description:
      "In the currency's minor unit (1250 is 12.50 EUR), from Stripe's minimum charge in that currency to its largest, " +
      `in the steps Stripe takes (a currency outside Stripe's minimum table is held to one step): ${perCurrency.join('; ')}. ` +
      'Any other amount is a 400.',
  };
}
