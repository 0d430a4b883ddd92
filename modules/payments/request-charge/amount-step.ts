/**
 * An amount Stripe would refuse for its granularity (a fraction of a króna, a three-decimal amount whose last
 * digit is not 0) is refused at the door, before anything is written, like an amount under the minimum
 * (minimum-charge.ts): accepted, it would reach the worker and end in review as a request the provider rejects.
 */
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { MAX_CHARGE_AMOUNT, stripeAmountStepOf } from './stripe-minor-units';

const stepOf = (args: ValidationArguments | undefined): number => {
  const currency = (args?.object as { currency?: unknown } | undefined)?.currency;
  return typeof currency === 'string' ? stripeAmountStepOf(currency) : 1;
};

/** "amount must be a multiple of 100 in ISK (whole krónur): Stripe refuses fractions of its unit". */
export function amountStepMessage(currency: string, step: number): string {
  const unit = currency === 'ISK' ? 'whole krónur' : 'the last of its three decimals 0';
  return `amount must be a multiple of ${step} in ${currency} (${unit}): Stripe refuses other amounts`;
}

/** The amount is a multiple of its currency's step; wrong types and amounts out of range (`@Min`, `@Max` in charge-request.body.ts) are left to the other rules (one message each). */
export const InStripeAmountSteps = (): PropertyDecorator =>
  ValidateBy({
    name: 'stripeAmountStep',
    validator: {
      validate: (value: unknown, args) =>
        typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_CHARGE_AMOUNT || value % stepOf(args) === 0,
      defaultMessage: (args) => {
        const currency = (args?.object as { currency?: unknown } | undefined)?.currency;
        return amountStepMessage(String(currency), stepOf(args));
      },
    },
  });
