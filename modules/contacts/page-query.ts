/**
 * `?limit=&cursor=` of the contacts module's paged lists (GET /v1/sync/runs, GET /v1/contacts/{source}/
 * {sourceId}/imports): keyset pages whose `cursor` is the previous page's `next` (src/errors/
 * keyset-cursor.ts, the support lists' scheme). An unknown query parameter, a limit out of range or a
 * cursor this service did not write is a field error, which the route answers 400 with the others.
 */

export interface FieldError {
  field: string;
  message: string;
}

export interface PageQueryRules<K> {
  /** Every parameter the route takes, its own included; any other is an error naming it. */
  parameters: readonly string[];
  defaultLimit: number;
  maxLimit: number;
  /** The key a cursor names, or undefined when it is not one this service wrote. */
  decode: (cursor: string) => K | undefined;
}

export function parsePageQuery<K>(
  query: Record<string, unknown>,
  rules: PageQueryRules<K>,
): { limit: number; after?: K; errors: FieldError[] } {
  const { limit, cursor } = query;
  const errors = Object.keys(query)
    .filter((name) => !rules.parameters.includes(name))
    .map((field) => ({ field, message: `${field} is not a known query parameter (${rules.parameters.join(', ')})` }));
  if (
    limit !== undefined &&
    !(typeof limit === 'string' && /^\d{1,4}$/.test(limit) && Number(limit) >= 1 && Number(limit) <= rules.maxLimit)
  )
    errors.push({ field: 'limit', message: `limit must be an integer from 1 to ${rules.maxLimit}` });
  const after = typeof cursor === 'string' ? rules.decode(cursor) : undefined;
  if (cursor !== undefined && after === undefined) errors.push({ field: 'cursor', message: 'cursor must be the next of an earlier page' });
  return { limit: limit === undefined ? rules.defaultLimit : Number(limit), ...(after !== undefined ? { after } : {}), errors };
}
