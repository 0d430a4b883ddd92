/**
 * `GET /v1/payment_intents` (spec3.json: "Returns a list of PaymentIntents"; parameters `customer`,
 * `created` — an exact Unix time or a range `created[gt|gte|lt|lte]` —, `limit` 1–100 default 10,
 * `starting_after` and `ending_before` cursors by id; answer `{object: 'list', data, has_more, url}`,
 * newest first). Unlike search, lists are strongly consistent: "For read-after-write flows that require
 * immediate data availability, use the various list APIs … These APIs aren't subject to the
 * availability delay" (docs.stripe.com/search, "Data freshness"). So this reads the current intents,
 * never the lagging search index.
 */
import type { FormObject } from '../api/form-encoding';
import { firstOverMaxLength } from '../api/string-limits';
import { invalidRequest, missingResource, type StripeErrorResponse } from '../api/stripe-errors';
import type { PaymentIntent } from './payment-intent';
import { parsePaging } from './search-paging';

export const LIST_PATH = '/v1/payment_intents';

type Query = Record<string, unknown>;
/** spec3.json (SPEC in api/string-limits.ts) `GetPaymentIntents`: these three are `maxLength: 5000`. */
const LIST_MAX_LENGTHS = { customer: 5000, starting_after: 5000, ending_before: 5000 };
// `expand[]` (spec3.json `GetPaymentIntents`: `expand`, an array of strings) is taken with no effect, as on create.
const KNOWN = /^(customer|created(\[(gt|gte|lt|lte)\])?|limit|starting_after|ending_before|expand\[\d*\])$/;
const RANGE = {
  gt: (a: number, b: number) => a > b,
  gte: (a: number, b: number) => a >= b,
  lt: (a: number, b: number) => a < b,
  lte: (a: number, b: number) => a <= b,
};

export function listPaymentIntents(
  intents: PaymentIntent[],
  query: Query,
):
  | { ok: true; body: { object: 'list'; data: PaymentIntent[]; has_more: boolean; url: string } }
  | { ok: false; error: StripeErrorResponse } {
  // Any other parameter is refused, as Stripe refuses it ("Received unknown parameter: …").
  const unknown = Object.keys(query).find((name) => !KNOWN.test(name));
  if (unknown) return { ok: false, error: invalidRequest(`Received unknown parameter: ${unknown}`, unknown, 'parameter_unknown') };
  const tooLong = firstOverMaxLength(query as FormObject, LIST_MAX_LENGTHS);
  if (tooLong) return { ok: false, error: tooLong };
  // Stripe's own answer to both cursors at once (captured in github.com/arlyon/async-stripe/issues/753, 2025;
  // no `code`, no `param` shown there).
  if (query.starting_after !== undefined && query.ending_before !== undefined)
    return { ok: false, error: invalidRequest('Received both starting_after and ending_before parameters. Please pass in only one.') };
  const paging = parsePaging(query.limit, undefined);
  if (!paging.ok) return paging;
  const tests: Array<(intent: PaymentIntent) => boolean> = [];
  if (query.customer !== undefined) tests.push((intent) => intent.customer === query.customer);
  for (const [key, value] of Object.entries(query)) {
    const bound = /^created(?:\[(gt|gte|lt|lte)\])?$/.exec(key);
    if (!bound) continue;
    const time = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
    if (Number.isNaN(time))
      return { ok: false, error: invalidRequest(`Invalid integer: ${String(value)}`, key, 'parameter_invalid_integer') };
    const compare = bound[1] ? RANGE[bound[1] as keyof typeof RANGE] : (a: number, b: number) => a === b;
    tests.push((intent) => compare(intent.created, time));
  }
  // Newest first, like every Stripe list; intents created in the same second keep their creation order reversed.
  let matching = intents.filter((intent) => tests.every((test) => test(intent))).reverse();
  const { limit } = paging.value;
  for (const cursor of ['starting_after', 'ending_before'] as const) {
    const id = query[cursor];
    if (id === undefined) continue;
    const at = matching.findIndex((intent) => intent.id === id);
    // An unknown cursor is a missing resource named by the cursor parameter, as Stripe answers it ("No such
    // account: acct_…", `param: starting_after`, github.com/stripe/stripe-node/issues/258, a curl by Stripe's brandur).
    if (at < 0) return { ok: false, error: missingResource('payment_intent', String(id), cursor, 400) };
    // ending_before pages towards the newer end: the `limit` intents just before the cursor, and
    // has_more says whether newer ones remain.
    if (cursor === 'ending_before') {
      const data = matching.slice(Math.max(0, at - limit), at);
      return { ok: true, body: { object: 'list', data, has_more: at > limit, url: LIST_PATH } };
    }
    matching = matching.slice(at + 1);
  }
  const data = matching.slice(0, limit);
  return { ok: true, body: { object: 'list', data, has_more: matching.length > data.length, url: LIST_PATH } };
}
