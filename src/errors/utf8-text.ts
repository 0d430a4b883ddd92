/**
 * Text from outside must be UTF-8 (RFC 8259 §8.1 for JSON; the import files say so too). Node's own
 * decoding (`Buffer#toString`) turns every invalid byte into U+FFFD, so "a\xffb" and "a\xfeb" were
 * imported as the same "a\uFFFDb": a record silently changed, and a different one taken as unchanged.
 * A fatal decoder refuses such bytes instead, so the caller hears about them.
 */
// ignoreBOM keeps a leading byte-order mark in the text, as Buffer#toString does: where one is dropped stays the caller's choice.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `bytes`, or undefined when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
