/**
 * JSON that PostgreSQL cannot hold, refused by both stores (append-validation.ts `prepareAppend`).
 * Two escapes are valid JSON that no jsonb value can hold: \u0000 (NUL; no PostgreSQL text holds it
 * either) and a lone UTF-16 surrogate (\ud800 with no low half: "Unicode low surrogate must follow
 * a high surrogate"). The PostgreSQL store keeps documents as `json` (migration 5), which checks only
 * their syntax, and EventStoreDB takes any bytes; but the read models live in PostgreSQL whichever
 * store holds the events. The first read model copying such a value would fail on the event, and
 * fail again on every retry: a projection stopped for good (and, in the PostgreSQL store, every
 * `data->>…` query over the events failing too). So the append is refused whole instead, as the jsonb
 * columns did before migration 5 (then as errors 22P05 / 22P02 from the server).
 */
import { InvalidAppend } from './errors';

// `\u0000` preceded by an even run of backslashes (none, or escaped backslashes): a real NUL escape,
// not the text "\u0000" (which JSON writes as `\\u0000`).
const NUL_ESCAPE = /(?<!\\)(?:\\\\)*\\u0000/;

// A surrogate escape with no partner, preceded by an even run of backslashes. JSON.stringify writes a
// valid pair as its characters and only a lone half as an escape; an escaped pair is allowed all the same.
const LONE_SURROGATE_ESCAPE =
  /(?<!\\)(?:\\\\)*(?:\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2})/;

export function assertStorableDocuments(documents: string[]): void {
  for (const json of documents) {
    if (!json.includes('\\u')) continue;
    if (json.includes('u0000') && NUL_ESCAPE.test(json)) {
      throw new InvalidAppend('EVENT_DATA', 'An event holds the character U+0000 (NUL), which PostgreSQL cannot store');
    }
    if (LONE_SURROGATE_ESCAPE.test(json)) {
      throw new InvalidAppend('EVENT_DATA', 'An event holds a lone UTF-16 surrogate (invalid Unicode), which PostgreSQL cannot store');
    }
  }
}
