/**
 * A CRM page's JSON text read as the source meant it. JSON.parse keeps the last of a name repeated in
 * one object, silently: `{"sourceId":"a","sourceId":"b"}` imported b, and `"fields":{"email":…,"email":…}`
 * the second email, where the push route refuses such a body (400 REQUEST.DUPLICATE_KEY) and a file
 * import rejects such a line. A page repeating a name of its own envelope (`nextCursor` twice) is a page
 * the source answered wrongly; a record repeating one is `rejected` on its own and the page goes on, as a
 * file's line is. One pass over the page finds them all (everyDuplicateKey).
 */
import { everyDuplicateKey } from '../../../src/errors/duplicate-json-key';

export interface PageKeys {
  /** A name the envelope repeats, as `nextCursor`: the page cannot be read as meant. */
  envelope?: string;
  /** Records (by index in `contacts`) that repeat a name, with the reason each is rejected. */
  records: Map<number, string>;
}

/** `text` must be JSON that JSON.parse accepted, an object with a `contacts` array. */
export function repeatedKeys(text: string): PageKeys {
  const records = new Map<number, string>();
  // One walk names every repeat with its place: inside `contacts[i]` it is record i's, anywhere else the envelope's.
  for (const { key, path, at } of everyDuplicateKey(text)) {
    const [top, index] = at;
    if (top !== 'contacts' || typeof index !== 'number' || at.length < 3) return { envelope: path, records: new Map() };
    if (!records.has(index))
      records.set(index, `record ${index + 1} of the page names ${JSON.stringify(key)} twice in one object (at ${at.slice(2).join('.')})`);
  }
  return { records };
}
