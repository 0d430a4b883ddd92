/**
 * Whether an `Accept` header asks GET /v1/audit/events for NDJSON rather than its default JSON, weighed
 * by q-values as RFC 9110 §12.5.1 has it: each media type takes the weight of the most specific range
 * that matches it (`application/x-ndjson` over `application/*` over `*\/*`), and `q=0` means "not
 * acceptable". NDJSON is chosen only when the client names it, with a weight above 0 and not below
 * JSON's; a wildcard alone keeps the default. A substring test answered NDJSON to
 * `application/x-ndjson;q=0` and to `application/x-ndjson;q=0.1, application/json`.
 */
const NDJSON = 'application/x-ndjson';
const JSON_TYPE = 'application/json';

interface MediaRange {
  type: string;
  q: number;
}

function parseRange(part: string): MediaRange | undefined {
  const [range, ...params] = part.split(';').map((piece) => piece.trim());
  if (!range || !range.includes('/')) return undefined;
  const qParam = params.find((param) => /^q\s*=/i.test(param));
  const q = qParam === undefined ? 1 : Number(qParam.slice(qParam.indexOf('=') + 1).trim());
  return { type: range.toLowerCase(), q: Number.isFinite(q) && q >= 0 && q <= 1 ? q : 1 };
}

const specificity = (range: string, type: string): number => {
  if (range === type) return 3;
  if (range === `${type.split('/')[0]}/*`) return 2;
  return range === '*/*' ? 1 : 0;
};

/** The weight the header gives `type` (0 when no range matches it), and whether a range names it exactly. */
function weightOf(ranges: readonly MediaRange[], type: string): { q: number; named: boolean } {
  let best = { rank: 0, q: 0 };
  for (const range of ranges) {
    const rank = specificity(range.type, type);
    if (rank > best.rank || (rank === best.rank && rank > 0 && range.q > best.q)) best = { rank, q: range.q };
  }
  return { q: best.q, named: best.rank === 3 };
}

export function wantsNdjson(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = accept.split(',').flatMap((part) => parseRange(part) ?? []);
  const ndjson = weightOf(ranges, NDJSON);
  return ndjson.named && ndjson.q > 0 && ndjson.q >= weightOf(ranges, JSON_TYPE).q;
}
