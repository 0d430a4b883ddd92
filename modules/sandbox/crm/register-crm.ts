/**
 * The sandbox CRM on the sandbox's port (our own fake CRM, see crm-data.ts):
 * - `GET /crm/contacts?cursor=&limit=&since=` pages through the contacts in index order, or in a seeded
 *   order of blocks (`outOfOrderPages`, crm-pages.ts); `nextCursor` is null after the last page. With
 *   `since` (ISO-8601) a page holds only contacts whose `updatedAt` is at or after it: in order, up to
 *   `limit` of them, found from the cursor on; out of order, those of its block. On demand (crm-behaviour.ts)
 *   a page repeats the contact before it, carries an older version of that contact, or is preceded by
 *   edits and deletes of seeded contacts.
 * - `/crm/_control/…` arms faults per page, mutates contacts, sets the behaviour, resets the CRM and
 *   counts requests.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CrmData, type CrmContact } from './crm-data';
import { CALM_CRM, parseCrmBehaviour } from './crm-behaviour';
import { parseCrmMutation, parseCrmReset } from './crm-control';
import { CrmFaults, parseCrmFault } from './crm-faults';
import { locatePage } from './crm-pages';

export interface CrmOptions {
  seed?: number;
  /** Contacts in the CRM (default 100,000). */
  size?: number;
}

const MAX_LIMIT = 1000;
const DEFAULT_TIMEOUT_HOLD_MS = 60_000;

export function registerSandboxCrm(app: FastifyInstance, options: CrmOptions = {}): void {
  let data = new CrmData(options.seed ?? 1, options.size ?? 100_000);
  const faults = new CrmFaults();
  let behaviour = { ...CALM_CRM };
  const requestsByPage = new Map<number, number>();
  const held = new Set<FastifyReply>();
  app.addHook('onClose', async () => {
    for (const reply of held) reply.raw.destroy();
  });

  app.get<{ Querystring: { cursor?: string; limit?: string; since?: string } }>('/crm/contacts', async (request, reply) => {
    const limit = Number(request.query.limit ?? 100);
    const since = request.query.since === undefined ? undefined : Date.parse(request.query.since);
    if (since !== undefined && Number.isNaN(since)) return reply.code(400).send({ error: 'since must be an ISO-8601 date-time' });
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      return reply.code(400).send({ error: `limit must be an integer in 1..${MAX_LIMIT}` });
    const located = locatePage(request.query.cursor, limit, data.size, data.seed, behaviour.outOfOrderPages);
    if (typeof located === 'string') return reply.code(400).send({ error: located });
    const page = located.number;
    requestsByPage.set(page, (requestsByPage.get(page) ?? 0) + 1);

    const fault = faults.strike(page);
    if (fault?.kind === 'error_500') return reply.code(500).send({ error: 'sandbox CRM fault: error_500' });
    if (fault?.kind === 'drop_connection') {
      request.raw.socket.destroy();
      return reply;
    }
    if (fault?.kind === 'timeout') {
      held.add(reply);
      await new Promise((resolve) => setTimeout(resolve, fault.ms ?? DEFAULT_TIMEOUT_HOLD_MS).unref());
      held.delete(reply);
      request.raw.socket.destroy();
      return reply;
    }
    if (fault?.kind === 'latency') await new Promise((resolve) => setTimeout(resolve, fault.ms ?? 1000).unref());

    // A page that is served (not failed by a fault) comes after the edits made since the one before.
    if (behaviour.mutatePerPage + behaviour.deletesPerPage > 0) data.mutate(behaviour.mutatePerPage, behaviour.deletesPerPage);
    const contacts: CrmContact[] = [];
    const { from, to } = located;
    let end = from;
    for (; end < (to ?? data.size) && (to !== undefined || contacts.length < limit); end++) {
      const contact = data.contact(end);
      if (since === undefined || Date.parse(contact.updatedAt) >= since) contacts.push(contact);
    }
    if (fault?.kind === 'contradictory')
      for (const c of contacts) if (c.fields) c.fields = { ...c.fields, name: `${String(c.fields.name)} (contradicted)` };
    if (behaviour.duplicates && from > 0) contacts.unshift(data.contact(from - 1));
    if (behaviour.outOfOrder && from > 0 && data.versionOf(from - 1) > 1)
      contacts.push(data.contact(from - 1, data.versionOf(from - 1) - 1));
    return { contacts, nextCursor: located.next(end) };
  });

  app.post('/crm/_control/faults', async (request, reply) => {
    const fault = parseCrmFault(request.body);
    if (typeof fault === 'string') return reply.code(400).send({ error: fault });
    faults.add(fault);
    return reply.code(201).send({ faults: faults.list() });
  });
  app.delete('/crm/_control/faults', async () => {
    faults.clear();
    return { faults: [] };
  });
  app.post('/crm/_control/mutate', async (request, reply) => {
    const mutation = parseCrmMutation(request.body);
    if (typeof mutation === 'string') return reply.code(400).send({ error: mutation });
    return { touched: data.mutate(mutation.count, mutation.deletes) };
  });
  app.post('/crm/_control/behaviour', async (request, reply) => {
    const parsed = parseCrmBehaviour(request.body);
    if (typeof parsed === 'string') return reply.code(400).send({ error: parsed });
    behaviour = parsed;
    return behaviour;
  });
  app.post('/crm/_control/reset', async (request, reply) => {
    const reset = parseCrmReset(request.body, data);
    if (typeof reset === 'string') return reply.code(400).send({ error: reset });
    data = new CrmData(reset.seed, reset.size);
    faults.clear();
    requestsByPage.clear();
    return { seed: data.seed, size: data.size };
  });
  app.get('/crm/_control/requests', async () => ({ byPage: Object.fromEntries(requestsByPage) }));
}
