import { isStripeTestPaymentMethod } from '../payment-intents/test-payment-methods';
import { blankCustomer, type CustomersStore, type StoredCustomer } from './customers.store';

/** `POST /_sandbox/customers`: a customer with this exact id, optionally paying with one of Stripe's test methods. */
export interface TestCustomer {
  id: string;
  /** A Stripe test method (`pm_card_visa`, `pm_card_chargeDeclined`, …) saved as the customer's default card. */
  paymentMethod?: string;
}

/** Long enough for any id Idem accepts; Stripe's own customer ids are far shorter. */
const MAX_ID_LENGTH = 255;

/**
 * Not a Stripe rule but a test affordance: Stripe makes up a customer's id, while a test or bench
 * needs the customer its orders name (`c1`, `cus_bench_7`) to exist before it charges them, because a
 * PaymentIntent for an unknown customer is refused, as at Stripe. Idempotent for one id: the customer
 * is made once, and a `paymentMethod` only attaches a new card when the default is not already that
 * test method, so a repeated call changes nothing.
 */
export function ensureTestCustomer(customers: CustomersStore, request: TestCustomer): StoredCustomer {
  const customer = customers.get(request.id) ?? customers.create(blankCustomer(), request.id);
  const current = customer.defaultPaymentMethod === null ? undefined : customers.paymentMethod(customer.defaultPaymentMethod);
  if (request.paymentMethod !== undefined && current?.testMethod !== request.paymentMethod) {
    return customers.update(customer.id, { defaultPaymentMethod: customers.attach(request.paymentMethod, customer.id).id });
  }
  return customer;
}

export function parseTestCustomer(body: unknown): { ok: true; customer: TestCustomer } | { ok: false; message: string } {
  const { id, paymentMethod } = (body ?? {}) as Record<string, unknown>;
  if (typeof id !== 'string' || id === '' || id.length > MAX_ID_LENGTH)
    return { ok: false, message: `id must be a string of 1 to ${MAX_ID_LENGTH} characters` };
  if (paymentMethod === undefined) return { ok: true, customer: { id } };
  if (typeof paymentMethod !== 'string' || !isStripeTestPaymentMethod(paymentMethod))
    return { ok: false, message: "paymentMethod must be one of Stripe's test methods, e.g. pm_card_visa or pm_successDelayed_de" };
  return { ok: true, customer: { id, paymentMethod } };
}
