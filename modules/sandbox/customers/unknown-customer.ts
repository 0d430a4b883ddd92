import { missingResource, type StripeErrorResponse } from '../api/stripe-errors';
import type { CustomersStore } from './customers.store';

/**
 * A PaymentIntent's `customer` must be a customer the account holds ("ID of the Customer this
 * PaymentIntent belongs to, if one exists", spec3.json `payment_intent.customer`): Stripe refuses any
 * other with 400 `resource_missing`, `param: customer`, "No such customer: '…'"
 * (docs.stripe.com/error-codes#resource-missing), and creates nothing.
 *
 * Not stored under the idempotency key: "Results are only saved if an API endpoint started executing.
 * If incoming parameters failed validation … no idempotent result is saved" (docs.stripe.com/api/
 * idempotent_requests). The sandbox treats a parameter that names a missing object as failed
 * validation, as it does for an unknown `payment_method`, so the same key can be retried once the
 * customer exists.
 */
export function unknownCustomerProblem(customers: CustomersStore, request: { customer: string | null }): StripeErrorResponse | undefined {
  if (request.customer === null || customers.get(request.customer)) return undefined;
  return missingResource('customer', request.customer, 'customer', 400);
}
