import type { FastifyInstance } from 'fastify';
import { answer } from '../api/exchange';
import type { FormObject } from '../api/form-encoding';
import { invalidRequest, missingResource } from '../api/stripe-errors';
import type { SandboxState } from '../sandbox-state';
import { customerObject } from './customer-object';
import { parseCustomerParams, type CustomerFields } from './customer-params';
import { blankCustomer } from './customers.store';

/**
 * `POST /v1/customers`, `GET /v1/customers/:id`, `POST /v1/customers/:id` (spec3.json paths of those
 * names). An unknown id is 404 `resource_missing` "No such customer: 'cus_…'" with `param: id`, as
 * Stripe answers a retrieve of a customer that does not exist.
 */
export function registerCustomers(app: FastifyInstance, state: SandboxState): void {
  app.post('/v1/customers', async (request, reply) => {
    const parsed = parseCustomerParams((request.body ?? {}) as FormObject);
    if (!parsed.ok) return answer(state, request, reply, parsed.error.status, parsed.error.body);
    const fields = parsed.value;
    if (fields.defaultPaymentMethod) {
      // A new customer owns no PaymentMethod yet, so none can be its default.
      const error = notAttached(fields.defaultPaymentMethod);
      return answer(state, request, reply, error.status, error.body);
    }
    const customer = state.customers.create({ ...blankCustomer(), ...fields });
    return answer(state, request, reply, 200, customerObject(customer));
  });

  app.get<{ Params: { id: string } }>('/v1/customers/:id', async (request, reply) => {
    const customer = state.customers.get(request.params.id);
    if (!customer) return answer(state, request, reply, 404, missingResource('customer', request.params.id, 'id').body);
    return answer(state, request, reply, 200, customerObject(customer));
  });

  app.post<{ Params: { id: string } }>('/v1/customers/:id', async (request, reply) => {
    const customer = state.customers.get(request.params.id);
    if (!customer) return answer(state, request, reply, 404, missingResource('customer', request.params.id, 'id').body);
    const parsed = parseCustomerParams((request.body ?? {}) as FormObject, customer.metadata);
    if (!parsed.ok) return answer(state, request, reply, parsed.error.status, parsed.error.body);
    const problem = defaultProblem(state, customer.id, parsed.value);
    if (problem) return answer(state, request, reply, problem.status, problem.body);
    return answer(state, request, reply, 200, customerObject(state.customers.update(customer.id, parsed.value)));
  });
}

function defaultProblem(state: SandboxState, customerId: string, fields: CustomerFields) {
  const paymentMethod = fields.defaultPaymentMethod;
  if (!paymentMethod || state.customers.paymentMethod(paymentMethod)?.customer === customerId) return undefined;
  return notAttached(paymentMethod);
}

/** Stripe's answer to a default that is not one of the customer's PaymentMethods (message as Stripe words it). */
function notAttached(paymentMethod: string) {
  return invalidRequest(
    `The customer does not have a payment method with the ID ${paymentMethod}. The payment method must be attached to the customer.`,
    'invoice_settings[default_payment_method]',
    'resource_missing',
  );
}
