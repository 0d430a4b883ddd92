import { missingResource, type StripeErrorResponse } from '../api/stripe-errors';
import { isStripeTestPaymentMethod } from '../payment-intents/test-payment-methods';
import type { CustomersStore } from './customers.store';

/**
 * A `payment_method` must be one the account holds, or one of Stripe's test PaymentMethods in test mode
 * (test-payment-methods.ts): Stripe answers any other id with `resource_missing`, "No such
 * PaymentMethod: '…'" (docs.stripe.com/error-codes#resource-missing), 400 when a parameter names it and
 * 404 when the URL does. Like an unknown customer it is failed validation, never stored under the
 * idempotency key (see unknown-customer.ts).
 */
export function unknownPaymentMethodProblem(
  customers: CustomersStore,
  paymentMethod: string | null,
  status: 400 | 404 = 400,
): StripeErrorResponse | undefined {
  if (paymentMethod === null || customers.paymentMethod(paymentMethod) || isStripeTestPaymentMethod(paymentMethod)) return undefined;
  return missingResource('PaymentMethod', paymentMethod, 'payment_method', status);
}
