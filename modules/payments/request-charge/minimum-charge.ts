/**
 * The smallest charge Stripe accepts per currency, so that a charge it would refuse (400 `amount_too_small`) is
 * refused at the door, before anything is written, instead of being accepted and failing in the worker.
 *
 * Source: docs.stripe.com/currencies, "Minimum and maximum charge amounts"
 * (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts): "we enforce a minimum amount when creating
 * a charge", a table of settlement currencies and their minimum charge (below in minor units, as `amount` is sent:
 * €0.50 is 50, ¥50 is 50, 175.00 Ft is 17500). "If you only have one bank account in use and you create charges in
 * the same currency as it, the minimum amount is simply what is listed for your currency." The sandbox cites the same
 * table (modules/sandbox/payment-intents/minimum-charge.ts); the two cannot share code (.dependency-cruiser.cjs:
 * the sandbox plays the outside world and imports nothing of Idem).
 *
 * A currency outside the table is converted by Stripe to the account's settlement currency and held to that
 * currency's minimum after conversion; Idem knows no exchange rates, so such a currency is held to 1 minor unit
 * here and a charge below the converted minimum is refused by the provider (README.md, "Charge amounts").
 */
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { stripeAmountStepOf, stripeExponentOf } from './stripe-minor-units';

const MINIMUM_CHARGE: Readonly<Record<string, number>> = {
  USD: 50,
  AED: 200,
  AUD: 50,
  BGN: 100,
  BRL: 50,
  CAD: 50,
  CHF: 50,
  CZK: 1500,
  DKK: 250,
  EUR: 50,
  GBP: 30,
  HKD: 400,
  HUF: 17500,
  INR: 50,
  JPY: 50,
  MXN: 1000,
  MYR: 200,
  NOK: 300,
  NZD: 50,
  PLN: 200,
  RON: 200,
  SEK: 300,
  SGD: 50,
  THB: 1000,
};

/**
 * Stripe's minimum charge in `currency` from its table, in the currency's minor unit (1 outside the
 * table). The smallest amount a charge may have is this moved onto the currency's step: smallestChargeOf.
 */
export const minimumChargeOf = (currency: unknown): number => (typeof currency === 'string' && MINIMUM_CHARGE[currency]) || 1;

/**
 * The smallest `amount` Stripe takes in `currency`: its minimum charge moved up onto the currency's step
 * (stripe-minor-units.ts). ISK is outside the minimum table but taken in whole krónur only: 100.
 */
export function smallestChargeOf(currency: string): number {
  const step = stripeAmountStepOf(currency);
  return Math.ceil(minimumChargeOf(currency) / step) * step;
}

/** "amount must be at least 50 (€0.50), the smallest charge Stripe accepts in EUR", in the currency's own units. */
export function minimumChargeMessage(currency: unknown): string {
  const minimum = typeof currency === 'string' ? smallestChargeOf(currency) : 1;
  if (minimum === 1 || typeof currency !== 'string') return 'amount must be at least 1 minor unit';
  // In Stripe's units, not Intl's: Intl gives HUF no decimals, Stripe's 17500 is 175.00 Ft.
  const exponent = stripeExponentOf(currency);
  const format = new Intl.NumberFormat('en', {
    style: 'currency',
    currency,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  });
  const major = minimum / 10 ** exponent;
  return `amount must be at least ${minimum} (${format.format(major)}), the smallest charge Stripe accepts in ${currency}`;
}

/**
 * The amount is at least the minimum charge of the body's `currency`. Amounts under 1 are left to `@Min(1)` (which
 * words its refusal with {@link minimumChargeMessage} too), so a field has one message, never two.
 */
export const AtLeastMinimumCharge = (): PropertyDecorator =>
  ValidateBy({
    name: 'minimumCharge',
    validator: {
      validate: (value: unknown, args) => typeof value !== 'number' || value < 1 || value >= minimumChargeOf(currencyOf(args)),
      defaultMessage: (args) => minimumChargeMessage(currencyOf(args)),
    },
  });

const currencyOf = (args: ValidationArguments | undefined): unknown => (args?.object as { currency?: unknown } | undefined)?.currency;
