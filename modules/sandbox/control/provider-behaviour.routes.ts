import type { FastifyInstance } from 'fastify';
import { settleProcessing } from '../payment-intents/settle-processing';
import type { SandboxState } from '../sandbox-state';

/** Switches of the provider's own behaviour that tests set per case: search lag, settling a pending payment. */
export function registerProviderBehaviour(app: FastifyInstance, state: SandboxState): void {
  /** `{lagMs}`: how long a new or changed intent stays invisible to search (0: immediately consistent). */
  app.post<{ Body: { lagMs?: unknown } | undefined }>('/_sandbox/search', async (request, reply) => {
    const lagMs = request.body?.lagMs;
    if (!Number.isInteger(lagMs) || (lagMs as number) < 0) return reply.code(400).send({ error: 'lagMs must be an integer >= 0' });
    state.intents.searchLagMs = lagMs as number;
    return { lagMs };
  });

  app.get('/_sandbox/search', async () => ({ lagMs: state.intents.searchLagMs }));

  /**
   * A `processing` intent reaches the final status its SEPA test token documents, as Stripe settles it
   * after "at least three minutes". `{status?: 'succeeded' | 'failed'}`: what the caller expects, checked
   * against the token (409 when they disagree).
   */
  app.post<{ Params: { id: string }; Body: { status?: unknown } | undefined }>(
    '/_sandbox/payment_intents/:id/settle',
    async (request, reply) => {
      const status = request.body?.status;
      if (status !== undefined && status !== 'succeeded' && status !== 'failed')
        return reply.code(400).send({ error: 'status, when given, must be "succeeded" or "failed"' });
      const settled = settleProcessing(state, request.params.id, status);
      if ('error' in settled) return reply.code(409).send(settled);
      return settled;
    },
  );
}
