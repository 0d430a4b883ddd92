/**
 * An amount Stripe would refuse for its granularity (a fraction of a króna, a three-decimal amount whose last
 * digit is not 0) or its size (more digits than Stripe takes in that currency) is refused at the door, before anything is written, like an amount under the minimum
 * (minimum-charge.ts): accepted, it would reach the worker and end in review as a request the provider rejects.
 */
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { stripeAmountStepOf, stripeMaximumAmountOf } from './stripe-minor-units';

const currencyOf = (args: ValidationArguments | undefined): unknown => (args?.object as { currency?: unknown } | undefined)?.currency;

const stepOf = (args: ValidationArguments | undefined): number => {
  const currency = currencyOf(args);
  return typeof currency === 'string' ? stripeAmountStepOf(currency) : 1;
};

/** "amount must be a multiple of 100 in ISK (whole krónur): Stripe refuses fractions of its unit". */
export function amountStepMessage(currency: string, step: number): string {
  const unit = currency === 'ISK' ? 'whole krónur' : 'the last of its three decimals 0';
  return `amount must be a multiple of ${step} in ${currency} (${unit}): Stripe refuses other amounts`;
}

/** The amount is a multiple of its currency's step; wrong types and amounts out of range (`@Min`, {@link AtMostStripeMaximum}) are left to the other rules (one message each). */
export const InStripeAmountSteps = (): PropertyDecorator =>
  ValidateBy({
    name: 'stripeAmountStep',
    validator: {
      validate: (value: unknown, args) =>
        typeof value !== 'number' ||
        !Number.isInteger(value) ||
        value < 1 ||
        value > stripeMaximumAmountOf(currencyOf(args)) ||
        value % stepOf(args) === 0,
      defaultMessage: (args) => amountStepMessage(String(currencyOf(args)), stepOf(args)),
    },
  });

/**
 * The amount is at most Stripe's largest charge in the body's currency (twelve digits in IDR, eight in the rest).
 * Named `max` with the largest bound of any currency, so the OpenAPI document (src/openapi/validated-bodies.ts)
 * states the `maximum` a body can ever have; the currency's own bound is checked here and named in the message.
 */
export const AtMostStripeMaximum = (): PropertyDecorator =>
  ValidateBy({
    name: 'max',
    constraints: [stripeMaximumAmountOf('IDR')],
    validator: {
      validate: (value: unknown, args) => typeof value !== 'number' || value <= stripeMaximumAmountOf(currencyOf(args)),
      defaultMessage: (args) => {
        const currency = currencyOf(args);
        const inCurrency = typeof currency === 'string' ? ` in ${currency}` : '';
        return `amount must be at most ${stripeMaximumAmountOf(currency)} minor units${inCurrency}, the largest charge Stripe accepts`;
      },
    },
  });
