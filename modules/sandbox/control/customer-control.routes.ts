import type { FastifyInstance } from 'fastify';
import { customerObject } from '../customers/customer-object';
import { ensureTestCustomer, parseTestCustomer } from '../customers/test-customer';
import type { SandboxState } from '../sandbox-state';

/**
 * `POST /_sandbox/customers {id, paymentMethod?}` → 201 with the Customer: the customers a test or a
 * bench charges, made before their first charge (see customers/test-customer.ts).
 */
export function registerCustomerControl(app: FastifyInstance, state: SandboxState): void {
  app.post('/_sandbox/customers', async (request, reply) => {
    const parsed = parseTestCustomer(request.body);
    if (!parsed.ok) return reply.code(400).send({ error: parsed.message });
    return reply.code(201).send(customerObject(ensureTestCustomer(state.customers, parsed.customer)));
  });
}
