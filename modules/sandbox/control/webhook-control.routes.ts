import type { FastifyInstance } from 'fastify';
import type { SandboxState } from '../sandbox-state';

/** Webhook misbehaviour switches and inspection. */
export function registerWebhookControl(app: FastifyInstance, state: SandboxState): void {
  app.post<{ Body: { duplicate?: unknown; reorder?: unknown } | undefined }>('/_sandbox/webhooks/mode', async (request, reply) => {
    const { duplicate, reorder } = request.body ?? {};
    if ((duplicate !== undefined && typeof duplicate !== 'boolean') || (reorder !== undefined && typeof reorder !== 'boolean')) {
      return reply.code(400).send({ error: 'duplicate and reorder must be booleans' });
    }
    return { mode: state.webhooks.setMode({ ...(duplicate !== undefined && { duplicate }), ...(reorder !== undefined && { reorder }) }) };
  });

  app.post<{ Body: { eventId?: unknown } | undefined }>('/_sandbox/webhooks/resend', async (request, reply) => {
    const eventId = request.body?.eventId;
    if (typeof eventId !== 'string') return reply.code(400).send({ error: 'eventId must be a string' });
    if (!state.webhooks.resend(eventId)) return reply.code(404).send({ error: `no event ${eventId}` });
    return reply.code(202).send({ resent: eventId });
  });

  app.post('/_sandbox/webhooks/flush', async () => ({ flushed: state.webhooks.flush() }));

  /** Points deliveries at another endpoint (e.g. a service that started after the sandbox); null stops them. */
  app.post<{ Body: { url?: unknown; secret?: unknown } | null | undefined }>('/_sandbox/webhooks/endpoint', async (request, reply) => {
    const body = request.body;
    if (body === null) {
      state.webhooks.configure(undefined);
      return { endpoint: null };
    }
    if (typeof body?.url !== 'string' || !URL.canParse(body.url) || typeof body.secret !== 'string' || body.secret === '') {
      return reply.code(400).send({ error: 'url must be an absolute URL and secret a non-empty string' });
    }
    state.webhooks.configure({ url: body.url, secret: body.secret });
    return { endpoint: { url: body.url } };
  });

  app.get('/_sandbox/webhooks/events', async () => ({ data: state.webhooks.list(), mode: state.webhooks.currentMode() }));
}
