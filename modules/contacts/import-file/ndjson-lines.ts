/**
 * The lines of an NDJSON file, split on the bytes so that no line is ever held whole beyond a bound:
 * readline builds each line as one string, and a 600 MiB line threw `Invalid string length` (a 300 MiB
 * one peaked at 1.7 GB). A line past the bound is counted and its bytes dropped until its line break;
 * it comes out as `tooLong` and the file goes on. Lines end as readline ends them (\n, \r\n or \r), so
 * the line numbers runs recorded with readline resume from stay the same. A line whose bytes are not
 * valid UTF-8 comes out as `notUtf8`, without its text: decoded as Node decodes, its bad bytes became
 * U+FFFD and the record was imported changed.
 */
import type { Readable } from 'node:stream';
import { decodeUtf8 } from '../../../src/errors/utf8-text';

export type NdjsonLine = { line: number; text: string } | { line: number; tooLong: true } | { line: number; notUtf8: true };

const LF = 0x0a;
const CR = 0x0d;

export async function* ndjsonLines(input: Readable, maxLineBytes: number): AsyncGenerator<NdjsonLine> {
  let line = 0;
  let pieces: Buffer[] = [];
  let held = 0;
  let tooLong = false;
  let afterCr = false;
  const end = (): NdjsonLine => {
    line++;
    const ended = tooLong ? { line, tooLong: true as const } : textOf(line, Buffer.concat(pieces, held));
    pieces = [];
    held = 0;
    tooLong = false;
    return ended;
  };
  const keep = (bytes: Buffer) => {
    if (tooLong || bytes.length === 0) return;
    held += bytes.length;
    if (held > maxLineBytes) {
      tooLong = true;
      pieces = [];
    } else pieces.push(bytes);
  };
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let start = 0;
    // A \r at the end of the chunk before: its \n (if it follows) is the same line break.
    if (afterCr && chunk[0] === LF) start = 1;
    afterCr = false;
    for (let at = start; at < chunk.length; at++) {
      const byte = chunk[at];
      if (byte !== LF && byte !== CR) continue;
      keep(chunk.subarray(start, at));
      yield end();
      if (byte === CR) {
        if (at + 1 === chunk.length) afterCr = true;
        else if (chunk[at + 1] === LF) at++;
      }
      start = at + 1;
    }
    keep(chunk.subarray(start));
  }
  if (held > 0 || tooLong) yield end();
}

function textOf(line: number, bytes: Buffer): NdjsonLine {
  const text = decodeUtf8(bytes);
  return text === undefined ? { line, notUtf8: true } : { line, text };
}
