import { invalidRequest, type StripeErrorResponse } from '../api/stripe-errors';
import type { CustomersStore } from './customers.store';

/**
 * A PaymentIntent for one customer cannot use a PaymentMethod attached to another: "payment methods
 * attached to other Customers cannot be used with this PaymentIntent" (spec3.json `payment_intent`
 * `customer`). Stripe answers 400 `invalid_request_error` with `param: payment_method` and no `code`;
 * Stripe's docs do not print the message, so its wording is the one Stripe's API answers with, as
 * recorded from live test-mode calls. Test ids (`pm_card_…`) belong to nobody and pay for anyone.
 */
export function foreignPaymentMethodProblem(
  customers: CustomersStore,
  request: { paymentMethod: string | null; customer: string | null },
): StripeErrorResponse | undefined {
  const owner = request.paymentMethod === null ? undefined : customers.paymentMethod(request.paymentMethod)?.customer;
  // Without a `customer` Stripe refuses too (another message); not modelled, see README.md.
  if (owner === undefined || request.customer === null || owner === request.customer) return undefined;
  return invalidRequest(
    `The PaymentMethod ${request.paymentMethod} does not belong to the Customer you supplied ${request.customer}. ` +
      'Please use this PaymentMethod with the Customer that it belongs to instead.',
    'payment_method',
  );
}
