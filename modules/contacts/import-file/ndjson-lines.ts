/**
 * The lines of an NDJSON file, split on the bytes so that no line is ever held whole beyond a bound:
 * readline builds each line as one string, and a 600 MiB line threw `Invalid string length` (a 300 MiB
 * one peaked at 1.7 GB). A line past the bound is counted and its bytes dropped until its line break;
 * it comes out as `tooLong` and the file goes on. Lines end as readline ends them (\n, \r\n or \r), so
 * the line numbers runs recorded with readline resume from stay the same. A line whose bytes are not
 * valid UTF-8 comes out as `notUtf8`, without its text: decoded as Node decodes, its bad bytes became
 * U+FFFD and the record was imported changed.
 *
 * Read `from` a place in the file (a resumed import seeks there instead of reading every line before
 * it), each line also says where the line after it starts (`next`): the byte after its line break. A
 * line ending in \r at the end of a read is handed out only once the next read shows whether a \n
 * follows, so that `next` never points at the \n of its own \r\n (read from there, that \n would be
 * one more, empty, line and every number after it one too high).
 */
import type { Readable } from 'node:stream';
import { decodeUtf8 } from '../../../src/errors/utf8-text';

export type NdjsonLine = ({ line: number; text: string } | { line: number; tooLong: true } | { line: number; notUtf8: true }) & {
  /** Where the next line starts (byte offset in the file); only when read `from` a place. */
  next?: number;
};

/** A place in the file to read from: the byte a line starts at and that line's number. */
export interface NdjsonStart {
  byte: number;
  line: number;
}

const LF = 0x0a;
const CR = 0x0d;

export async function* ndjsonLines(input: Readable, maxLineBytes: number, from?: NdjsonStart): AsyncGenerator<NdjsonLine> {
  let line = from ? from.line - 1 : 0;
  let pieces: Buffer[] = [];
  let held = 0;
  let tooLong = false;
  /** The line before ended in \r at the end of a read: it is handed out once the next byte is seen. */
  let afterCr = false;
  /** The byte offset (in the file) of the chunk being split. */
  let chunkAt = from?.byte ?? 0;
  const end = (next: number): NdjsonLine => {
    line++;
    const ended = tooLong ? { line, tooLong: true as const } : textOf(line, Buffer.concat(pieces, held));
    pieces = [];
    held = 0;
    tooLong = false;
    return from ? { ...ended, next } : ended;
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
    if (afterCr) {
      // Its \n, if one follows, is the same line break.
      start = chunk[0] === LF ? 1 : 0;
      afterCr = false;
      yield end(chunkAt + start);
    }
    for (let at = start; at < chunk.length; at++) {
      const byte = chunk[at];
      if (byte !== LF && byte !== CR) continue;
      keep(chunk.subarray(start, at));
      if (byte === CR && at + 1 === chunk.length) {
        afterCr = true;
        start = at + 1;
        break;
      }
      if (byte === CR && chunk[at + 1] === LF) at++;
      start = at + 1;
      yield end(chunkAt + start);
    }
    keep(chunk.subarray(start));
    chunkAt += chunk.length;
  }
  if (afterCr || held > 0 || tooLong) yield end(chunkAt);
}

function textOf(line: number, bytes: Buffer): NdjsonLine {
  const text = decodeUtf8(bytes);
  return text === undefined ? { line, notUtf8: true } : { line, text };
}
