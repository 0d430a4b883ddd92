/**
 * A CRM page's JSON text read as the source meant it. JSON.parse keeps the last of a name repeated in
 * one object, silently: `{"sourceId":"a","sourceId":"b"}` imported b, and `"fields":{"email":…,"email":…}`
 * the second email, where the push route refuses such a body (400 REQUEST.DUPLICATE_KEY) and a file
 * import rejects such a line. A page repeating a name of its own envelope (`nextCursor` twice) is a page
 * the source answered wrongly; a record repeating one is `rejected` on its own and the page goes on, as a
 * file's line is. Scanning is done only when the whole page holds a repeated name, so a sound page costs
 * one pass of firstDuplicateKey.
 */
import { firstDuplicateKey } from '../../../src/errors/duplicate-json-key';

export interface PageKeys {
  /** A name the envelope repeats, as `nextCursor`: the page cannot be read as meant. */
  envelope?: string;
  /** Records (by index in `contacts`) that repeat a name, with the reason each is rejected. */
  records: Map<number, string>;
}

/** `text` must be JSON that JSON.parse accepted, an object with a `contacts` array. */
export function repeatedKeys(text: string): PageKeys {
  const records = new Map<number, string>();
  const first = firstDuplicateKey(text);
  if (!first) return { records };
  const array = contactsArray(text);
  if (!array) return { envelope: first.path, records };
  // The envelope with its records left out: a name it repeats after a record that repeats one is found too.
  const envelope = firstDuplicateKey(`${text.slice(0, array.open + 1)}${text.slice(array.close)}`);
  if (envelope) return { envelope: envelope.path, records };
  array.records.forEach((record, i) => {
    const repeated = firstDuplicateKey(record);
    if (repeated)
      records.set(i, `record ${i + 1} of the page names ${JSON.stringify(repeated.key)} twice in one object (at ${repeated.path})`);
  });
  return { records };
}

interface ContactsArray {
  /** Offsets of the array's `[` and `]`. */
  open: number;
  close: number;
  /** Each element's text. */
  records: string[];
}

/** The top-level `contacts` array's bounds and elements, by a walk over the punctuation (strings skipped). */
function contactsArray(text: string): ContactsArray | undefined {
  let depth = 0;
  let name: string | undefined;
  let open = -1;
  let start = -1;
  const records: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = closingQuote(text, i);
      if (depth === 1 && open < 0) name = JSON.parse(text.slice(i, end + 1)) as string;
      if (open >= 0 && depth === 2 && start < 0) start = i;
      i = end;
    } else if (c === '{' || c === '[') {
      if (depth === 1 && c === '[' && name === 'contacts' && open < 0) open = i;
      else if (open >= 0 && depth === 2 && start < 0) start = i;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (open >= 0 && depth === 1) {
        if (start >= 0) records.push(text.slice(start, i));
        return { open, close: i, records };
      }
    } else if (c === ',' && open >= 0 && depth === 2) {
      records.push(text.slice(start, i));
      start = -1;
    } else if (open >= 0 && depth === 2 && start < 0 && !/\s/.test(c)) {
      start = i;
    }
  }
  return undefined;
}

/** The index of the quote that ends the string opening at `open` (a quote after an odd run of backslashes is escaped). */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}
