import { invalidRequest, type StripeErrorResponse } from '../api/stripe-errors';

/**
 * Paging of Stripe's search endpoints (spec3.json `GET /v1/payment_intents/search`): `limit` "between 1
 * and 100, and the default is 10"; `page` is the cursor from a previous answer's `next_page`; the
 * answer (`SearchResult`) carries `has_more` and `next_page` (null on the last page).
 */
export interface Paging {
  limit: number;
  offset: number;
}

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

export function parsePaging(limit: unknown, page: unknown): { ok: true; value: Paging } | { ok: false; error: StripeErrorResponse } {
  let parsedLimit = DEFAULT_LIMIT;
  if (limit !== undefined) {
    parsedLimit = typeof limit === 'string' && /^\d+$/.test(limit) ? Number(limit) : NaN;
    if (!(parsedLimit >= 1 && parsedLimit <= MAX_LIMIT)) {
      return {
        ok: false,
        error: invalidRequest(`Invalid limit: must be an integer between 1 and ${MAX_LIMIT}`, 'limit', 'parameter_invalid_integer'),
      };
    }
  }
  let offset = 0;
  if (page !== undefined && page !== '') {
    const decoded = typeof page === 'string' ? /^page_(\d+)$/.exec(Buffer.from(page, 'base64url').toString()) : null;
    if (!decoded) return { ok: false, error: invalidRequest('Invalid page: use the next_page of a previous search result.', 'page') };
    offset = Number(decoded[1]);
  }
  return { ok: true, value: { limit: parsedLimit, offset } };
}

export function pageOf<T>(items: T[], paging: Paging): { data: T[]; has_more: boolean; next_page: string | null } {
  const data = items.slice(paging.offset, paging.offset + paging.limit);
  const next = paging.offset + data.length;
  const hasMore = next < items.length;
  return { data, has_more: hasMore, next_page: hasMore ? Buffer.from(`page_${next}`).toString('base64url') : null };
}
