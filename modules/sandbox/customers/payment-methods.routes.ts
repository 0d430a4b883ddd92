import type { FastifyInstance } from 'fastify';
import { answer } from '../api/exchange';
import type { FormObject, FormValue } from '../api/form-encoding';
import { outsideEnum, overMaxLength } from '../api/string-limits';
import { invalidRequest, missingResource } from '../api/stripe-errors';
import { paymentMethodObject } from '../payment-intents/payment-method-object';
import type { SandboxState } from '../sandbox-state';
import type { StoredPaymentMethod } from './customers.store';
import { PAYMENT_METHOD_TYPES } from './payment-method-types';
import { unknownPaymentMethodProblem } from './unknown-payment-method';

const LIST_PATH = '/v1/payment_methods';
const MAX_LIST_LIMIT = 100;
/** spec3.json (SPEC in api/string-limits.ts) `GetPaymentMethods`: `customer` `maxLength: 5000`. */
const MAX_ID_LENGTH = 5000;

/**
 * `POST /v1/payment_methods/:id/attach` (`customer` required) and `GET /v1/payment_methods?customer=`
 * (spec3.json: `customer` required in that era, `type` filters, `limit` 1..100 default 10, newest
 * first). Stripe's own guide finds the card to charge off-session this way ("list the payment methods
 * associated with your customer", docs.stripe.com/payments/save-and-reuse, "Charge the saved payment
 * method later"). `type` keeps the cards (`card`) or the SEPA Direct Debit accounts (`sepa_debit`).
 */
export function registerPaymentMethods(app: FastifyInstance, state: SandboxState): void {
  app.post<{ Params: { id: string } }>('/v1/payment_methods/:id/attach', async (request, reply) => {
    const { id } = request.params;
    const customerId = ((request.body ?? {}) as FormObject).customer;
    if (customerId === undefined || customerId === '') {
      const error = invalidRequest('Missing required param: customer.', 'customer', 'parameter_missing');
      return answer(state, request, reply, error.status, error.body);
    }
    if (typeof customerId !== 'string' || !state.customers.get(customerId)) {
      return answer(state, request, reply, 400, missingResource('customer', String(customerId), 'customer', 400).body);
    }
    const stored = state.customers.paymentMethod(id);
    if (stored && stored.customer !== customerId) {
      const error = invalidRequest('The payment method you provided has already been attached to a customer.', 'payment_method');
      return answer(state, request, reply, error.status, error.body);
    }
    const unknown = unknownPaymentMethodProblem(state.customers, id, 404);
    if (unknown) return answer(state, request, reply, unknown.status, unknown.body);
    const attached = stored ?? state.customers.attach(id, customerId);
    return answer(state, request, reply, 200, objectOf(attached));
  });

  app.get<{ Querystring: { customer?: unknown; type?: unknown; limit?: unknown } }>(LIST_PATH, async (request, reply) => {
    const { customer, type, limit } = request.query;
    if (typeof customer !== 'string' || customer === '') {
      const error = invalidRequest('Missing required param: customer.', 'customer', 'parameter_missing');
      return answer(state, request, reply, error.status, error.body);
    }
    const refused =
      overMaxLength('customer', customer, MAX_ID_LENGTH) ?? outsideEnum('type', type as FormValue | undefined, PAYMENT_METHOD_TYPES);
    if (refused) return answer(state, request, reply, refused.status, refused.body);
    if (!state.customers.get(customer))
      return answer(state, request, reply, 400, missingResource('customer', customer, 'customer', 400).body);
    const size = limit === undefined ? 10 : Number(limit);
    if (!Number.isInteger(size) || size < 1 || size > MAX_LIST_LIMIT) {
      const error = invalidRequest(`Invalid integer: ${String(limit)}`, 'limit', 'parameter_invalid_integer');
      return answer(state, request, reply, error.status, error.body);
    }
    const methods = state.customers.paymentMethodsOf(customer).map(objectOf);
    const ofType = type === undefined ? methods : methods.filter((method) => method.type === type);
    return answer(state, request, reply, 200, {
      object: 'list',
      data: ofType.slice(0, size),
      has_more: ofType.length > size,
      url: LIST_PATH,
    });
  });
}

function objectOf(method: StoredPaymentMethod) {
  return paymentMethodObject(method.id, method.customer, method.created, method.testMethod);
}
