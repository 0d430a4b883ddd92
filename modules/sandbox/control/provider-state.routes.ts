import type { FastifyInstance } from 'fastify';
import { parseOutsideCharge, recordOutsideCharge } from '../payment-intents/outside-charge';
import { ORDER_ID_METADATA_KEY, isSucceededCharge } from '../payment-intents/payment-intent';
import { resetSandboxState, type SandboxState } from '../sandbox-state';

/**
 * The provider's side of the truth, for invariant checks: which intents really exist (invariant 1
 * counts succeeded intents per order here, not in Idem's database) and which calls were made.
 */
export function registerProviderState(app: FastifyInstance, state: SandboxState): void {
  app.get<{ Querystring: { orderId?: string; status?: string } }>('/_sandbox/charges', async (request) => {
    const { orderId, status } = request.query;
    const intents = orderId === undefined ? state.intents.all() : state.intents.withMetadata(ORDER_ID_METADATA_KEY, orderId);
    return {
      data: intents.filter((intent) => status === undefined || intent.status === status),
      // Invariant 1 (DESIGN §9) counts succeeded intents: more than one for an order is a double charge.
      // The name is kept for the benchmarks that read it.
      charge_attempts: intents.filter(isSucceededCharge).length,
    };
  });

  app.post('/_sandbox/charges', async (request, reply) => {
    const parsed = parseOutsideCharge(request.body);
    if (!parsed.ok) return reply.code(400).send({ error: parsed.message });
    return reply.code(201).send(recordOutsideCharge(state, parsed.charge));
  });

  app.get<{ Querystring: { orderId?: string } }>('/_sandbox/requests', async (request) => ({
    data: state.requestLog.list({ orderId: request.query.orderId }),
  }));

  app.post('/_sandbox/reset', async () => {
    resetSandboxState(state);
    return { reset: true };
  });
}
