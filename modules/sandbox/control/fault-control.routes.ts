import type { FastifyInstance } from 'fastify';
import { parseFaultSpec } from '../faults/fault';
import type { SandboxState } from '../sandbox-state';

const MAX_HOLD_WAIT_MS = 60_000;

/** Fault injection for tests: arm, list, clear faults; release and await held answers. */
export function registerFaultControl(app: FastifyInstance, state: SandboxState): void {
  app.post('/_sandbox/faults', async (request, reply) => {
    const parsed = parseFaultSpec(request.body);
    if (!parsed.ok) return reply.code(400).send({ error: parsed.message });
    return reply.code(201).send({ fault: state.faults.add(parsed.spec) });
  });

  app.get('/_sandbox/faults', async () => ({ data: state.faults.list(), held: state.held.list() }));

  app.delete('/_sandbox/faults', async () => {
    state.faults.clear();
    return { data: state.faults.list() };
  });

  app.post<{ Body: { orderId?: unknown } | undefined }>('/_sandbox/release', async (request, reply) => {
    const orderId = request.body?.orderId;
    if (orderId !== undefined && typeof orderId !== 'string') return reply.code(400).send({ error: 'orderId must be a string' });
    return { released: state.held.release(orderId) };
  });

  /**
   * Long poll for out-of-process tests: answers once at least `minCount` answers are held (default 1),
   * or after `waitMs` (default 0, at most 60000) with whatever is held then.
   */
  app.get<{ Querystring: { minCount?: string; waitMs?: string } }>('/_sandbox/holds', async (request, reply) => {
    const minCount = Number(request.query.minCount ?? 1);
    const waitMs = Number(request.query.waitMs ?? 0);
    if (!Number.isInteger(minCount) || minCount < 0 || !Number.isInteger(waitMs) || waitMs < 0 || waitMs > MAX_HOLD_WAIT_MS) {
      return reply.code(400).send({ error: `minCount must be an integer >= 0, waitMs an integer in 0..${MAX_HOLD_WAIT_MS}` });
    }
    return { data: await state.held.waitForCount(minCount, waitMs, state.shutdown) };
  });
}
