import type { FastifyInstance } from 'fastify';
import { answer, exchangeOf } from '../api/exchange';
import type { FormObject } from '../api/form-encoding';
import { firstOverMaxLength } from '../api/string-limits';
import { invalidRequest, missingResource } from '../api/stripe-errors';
import type { SandboxState } from '../sandbox-state';
import { LIST_PATH, listPaymentIntents } from './list-payment-intents';
import { ORDER_ID_METADATA_KEY } from './payment-intent';
import { parseSearchQuery } from './search-query';
import { pageOf, parsePaging } from './search-paging';

const SEARCH_PATH = '/v1/payment_intents/search';
const SEARCH_PARAMS = /^(query|limit|page|expand\[\d*\])$/;

/**
 * Retrieve and list (strongly consistent: the intents as they are now) and search (lagging: see IntentsStore, as
 * spec3.json's description of this endpoint warns), paged with `limit` and `page` like Stripe's.
 */
export function registerReadPaymentIntents(app: FastifyInstance, state: SandboxState): void {
  app.get<{ Querystring: { query?: unknown; limit?: unknown; page?: unknown } }>(SEARCH_PATH, async (request, reply) => {
    // spec3.json `GetPaymentIntentsSearch` takes `expand`, `limit`, `page` and `query`; anything else is refused, as
    // on list and create ("Received unknown parameter: …").
    const unknown = Object.keys(request.query).find((name) => !SEARCH_PARAMS.test(name));
    if (unknown) {
      const error = invalidRequest(`Received unknown parameter: ${unknown}`, unknown, 'parameter_unknown');
      return answer(state, request, reply, error.status, error.body);
    }
    const query = request.query.query;
    if (query === undefined || query === '') {
      const error = invalidRequest('Missing required param: query.', 'query', 'parameter_missing');
      return answer(state, request, reply, error.status, error.body);
    }
    // spec3.json (SPEC in api/string-limits.ts) `GetPaymentIntentsSearch`: `query` and `page` are `maxLength: 5000`.
    const tooLong = firstOverMaxLength(request.query as FormObject, { query: 5000, page: 5000 });
    if (tooLong) return answer(state, request, reply, tooLong.status, tooLong.body);
    const parsed = typeof query === 'string' ? parseSearchQuery(query) : undefined;
    if (!parsed) {
      const message = `This sandbox only supports search queries of the form metadata['order_id']:'<value>', got: ${String(query)}`;
      const error = invalidRequest(message, 'query', 'parameter_invalid_string');
      return answer(state, request, reply, error.status, error.body);
    }
    const paging = parsePaging(request.query.limit, request.query.page);
    if (!paging.ok) return answer(state, request, reply, paging.error.status, paging.error.body);
    if (parsed.key === ORDER_ID_METADATA_KEY) exchangeOf(request, state).orderId = parsed.value;
    // Newest first, like Stripe's lists.
    const found = state.intents.searchMetadata(parsed.key, parsed.value).reverse();
    return answer(state, request, reply, 200, { object: 'search_result', ...pageOf(found, paging.value), url: SEARCH_PATH });
  });

  app.get<{ Querystring: Record<string, unknown> }>(LIST_PATH, async (request, reply) => {
    const listed = listPaymentIntents(state.intents.all(), request.query);
    if (!listed.ok) return answer(state, request, reply, listed.error.status, listed.error.body);
    return answer(state, request, reply, 200, listed.body);
  });

  app.get<{ Params: { id: string } }>('/v1/payment_intents/:id', async (request, reply) => {
    const intent = state.intents.get(request.params.id);
    if (!intent) {
      const error = missingResource('payment_intent', request.params.id, 'intent');
      return answer(state, request, reply, error.status, error.body);
    }
    exchangeOf(request, state).orderId = intent.metadata[ORDER_ID_METADATA_KEY] ?? null;
    return answer(state, request, reply, 200, intent);
  });
}
