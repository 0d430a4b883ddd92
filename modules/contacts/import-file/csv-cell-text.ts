/**
 * The text of a CSV cell, from its bytes. csv-parse decodes cells as Node does, turning every byte that
 * is not UTF-8 into U+FFFD, so "a\xffb" and "a\xfeb" were imported as the same "a\uFFFDb": it hands over
 * the bytes instead (`encoding: null`) and they are decoded here, strictly.
 */
import { decodeUtf8 } from '../../../src/errors/utf8-text';

/** A cell as csv-parse hands it over: bytes, or (in the record of a skipped row) the JSON copy of them. */
export type CellBytes = Uint8Array | { type: 'Buffer'; data: number[] };

/** The cell's text, or undefined when its bytes are not valid UTF-8. */
export const cellText = (cell: CellBytes): string | undefined => decodeUtf8(cell instanceof Uint8Array ? cell : Buffer.from(cell.data));

/** The cells' texts, or undefined when one of them is not valid UTF-8. */
export function cellTexts(cells: Record<string, CellBytes>): Record<string, string> | undefined {
  const texts: Record<string, string> = {};
  for (const key of Object.keys(cells)) {
    const text = cellText(cells[key]);
    if (text === undefined) return undefined;
    texts[key] = text;
  }
  return texts;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The file without a leading UTF-8 byte-order mark (Excel's "CSV UTF-8" writes one). csv-parse would drop
 * it too, but finding one it switches back to decoding cells itself.
 */
export async function* withoutUtf8Bom(
  input: AsyncIterable<Buffer> | Iterable<Buffer>,
  dropped?: (bytes: number) => void,
): AsyncGenerator<Buffer> {
  let head = Buffer.alloc(0);
  let started = false;
  for await (const chunk of input) {
    if (started) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < UTF8_BOM.length && UTF8_BOM.subarray(0, head.length).equals(head)) continue;
    started = true;
    const bom = head.subarray(0, UTF8_BOM.length).equals(UTF8_BOM);
    dropped?.(bom ? UTF8_BOM.length : 0);
    const rest = bom ? head.subarray(UTF8_BOM.length) : head;
    if (rest.length > 0) yield rest;
  }
  if (!started && head.length > 0) yield head;
}
