/**
 * RFC 8259 §4 says an object's names SHOULD be unique and leaves a document that repeats one to the
 * parser: JSON.parse keeps the last value, another parser the first, so
 * `{"records":[…a…],"records":[…b…]}` imported b while a log, a proxy or a signature check in front of
 * the api may have read a. The api refuses such a body instead (http-edge.ts).
 *
 * JSON.parse cannot report a repeated name (a reviver sees only the survivor), so the text is scanned
 * once more, after JSON.parse has accepted it: only valid JSON reaches here, which keeps the scanner a
 * plain walk over the structure. Strings are skipped with indexOf, so its cost is one pass over the
 * punctuation and numbers plus a Set entry per name. Measured on these 2 cores: a 4.7 MiB push of
 * 1,000 records with 40 fields each, 6 ms beside secure-json-parse's 8 ms; 4 MiB of 200,000 short
 * members, about 30 ms beside its 60–80 ms (fastest of 60 runs on a busy machine).
 */

/** A repeated name: the name as decoded, and the path of the value it repeats, as `records.1.fields.email`. */
export interface DuplicateKey {
  key: string;
  path: string;
}

/** A repeat with its path also as names and indices (`['records', 1, 'fields', 'email']`), for a caller that sorts by place. */
export interface PlacedDuplicateKey extends DuplicateKey {
  at: Array<string | number>;
}

interface Frame {
  /** The names seen so far in an object; undefined for an array. */
  keys: Set<string> | undefined;
  /** The current member's name, or the current element's index. */
  at: string | number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** The first name repeated within one object of `text`, which must be JSON that JSON.parse accepts. */
export function firstDuplicateKey(text: string): DuplicateKey | undefined {
  let first: DuplicateKey | undefined;
  scanDuplicateKeys(text, ({ key, path }) => ((first = { key, path }), false));
  return first;
}

/** Every repeat of a name within one object of `text`, in the order they stand (JSON that JSON.parse accepts). */
export function everyDuplicateKey(text: string): PlacedDuplicateKey[] {
  const found: PlacedDuplicateKey[] = [];
  scanDuplicateKeys(text, (duplicate) => (found.push(duplicate), true));
  return found;
}

/** One walk over `text`, telling `found` each repeat until it answers false. */
function scanDuplicateKeys(text: string, found: (duplicate: PlacedDuplicateKey) => boolean): void {
  const stack: Frame[] = [];
  /** In an object, whether the next string is a member's name (after `{` or `,`), not its value. */
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (expectKey) {
        const frame = stack[stack.length - 1];
        const raw = text.slice(i + 1, end);
        // "a" and "\u0061" are the same name once decoded.
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (frame.keys!.has(key)) {
          const at = [...stack.slice(0, -1).map((open) => open.at), key];
          if (!found({ key, path: at.join('.'), at })) return;
        }
        frame.keys!.add(key);
        frame.at = key;
        expectKey = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT) {
      stack.push({ keys: new Set(), at: '' });
      expectKey = true;
    } else if (c === OPEN_ARRAY) {
      stack.push({ keys: undefined, at: 0 });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      stack.pop();
      expectKey = false; // `{}` closes an object that expected a name
    } else if (c === COMMA) {
      const frame = stack[stack.length - 1];
      if (frame.keys) expectKey = true;
      else frame.at = (frame.at as number) + 1;
    } else if (c === COLON) {
      expectKey = false;
    }
  }
}

/** The index of the quote that ends the string opening at `open` (a quote after an odd run of backslashes is escaped). */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}
