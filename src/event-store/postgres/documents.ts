/**
 * JSON that PostgreSQL's text cannot hold. The events table keeps documents as `json` (migration 5),
 * which checks only their syntax, so the escape \u0000 (NUL) would be stored; but no PostgreSQL text
 * or jsonb value can hold NUL, so the first read model copying that value would fail on the event,
 * and fail again on every retry: a projection stopped for good. The adapter refuses such an append
 * whole instead, as the jsonb columns did before migration 5 (then as error 22P05 from the server).
 * EventStoreDB would take it; this is the one document PostgreSQL stores cannot.
 */
import { InvalidAppend } from '../errors';

// `\u0000` preceded by an even run of backslashes (none, or escaped backslashes): a real NUL escape,
// not the text "\u0000" (which JSON writes as `\\u0000`).
const NUL_ESCAPE = /(?<!\\)(?:\\\\)*\\u0000/;

export function assertStorableDocuments(documents: string[]): void {
  for (const json of documents) {
    if (json.includes('u0000') && NUL_ESCAPE.test(json)) {
      throw new InvalidAppend('EVENT_DATA', 'An event holds the character U+0000 (NUL), which PostgreSQL cannot store');
    }
  }
}
