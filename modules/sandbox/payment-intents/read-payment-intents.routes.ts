import type { FastifyInstance } from 'fastify';
import { answer, exchangeOf } from '../api/exchange';
import { invalidRequest, missingResource } from '../api/stripe-errors';
import type { SandboxState } from '../sandbox-state';
import { ORDER_ID_METADATA_KEY } from './payment-intent';
import { parseSearchQuery } from './search-query';

const SEARCH_PATH = '/v1/payment_intents/search';

/**
 * Retrieve and search. Unlike real Stripe, search here is immediately consistent: the sandbox shows
 * what it holds, and Idem must not depend on the search delay either way.
 */
export function registerReadPaymentIntents(app: FastifyInstance, state: SandboxState): void {
  app.get<{ Querystring: { query?: unknown } }>(SEARCH_PATH, async (request, reply) => {
    const query = request.query.query;
    if (query === undefined || query === '') {
      const error = invalidRequest('Missing required param: query.', 'query', 'parameter_missing');
      return answer(state, request, reply, error.status, error.body);
    }
    const parsed = typeof query === 'string' ? parseSearchQuery(query) : undefined;
    if (!parsed) {
      const message = `This sandbox only supports search queries of the form metadata['order_id']:'<value>', got: ${String(query)}`;
      const error = invalidRequest(message, 'query', 'parameter_invalid_string');
      return answer(state, request, reply, error.status, error.body);
    }
    if (parsed.key === ORDER_ID_METADATA_KEY) exchangeOf(request, state).orderId = parsed.value;
    // Newest first, like Stripe's lists.
    const data = state.intents.withMetadata(parsed.key, parsed.value).reverse();
    return answer(state, request, reply, 200, { object: 'search_result', data, has_more: false, next_page: null, url: SEARCH_PATH });
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
