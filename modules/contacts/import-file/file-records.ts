/**
 * Records of an export file, streamed (a 1 GB file never sits in memory): NDJSON, one JSON record
 * per line, or CSV (csv-records.ts). Each record keeps its line number: a run records the last line
 * it finished, and a resumed run skips up to it. Each record also says where the file goes on after
 * it (`next`, a FilePosition): a run records that with its slice, and a resumed run reads the file
 * `from` there, instead of reading and parsing every line before it again.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { DEFAULT_MAX_APPEND_BYTES } from '../../../src/event-store/append-validation';
import { firstDuplicateKey } from '../../../src/errors/duplicate-json-key';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../../src/errors/json-depth';
import { csvRecords } from './csv-records';
import { ndjsonLines } from './ndjson-lines';

/**
 * The longest NDJSON line read as a record. A record's events must fit the store's append limit
 * (1 MiB); its JSON text may be longer than what is stored (an exporter writing every character as a
 * six-byte \u escape, indentation), so the bound leaves room above the limit: a line past 8 MiB could
 * never be stored, and holding it whole only costs memory (readline crashed on 600 MiB).
 */
export const MAX_LINE_BYTES = 8 * DEFAULT_MAX_APPEND_BYTES;

export interface FileReading {
  /** Reads this many bytes and no more: the bytes that were hashed, even if the file grew since. */
  bytes: number;
  /** Each chunk as it is read (the import counts and hashes them). */
  onChunk?: (chunk: Buffer) => void;
  maxLineBytes?: number;
  /**
   * Reads from this place on (where an earlier record said the file goes on); the records after it come
   * out exactly as a read from the start gives them, line numbers included. Undefined: from the start.
   */
  from?: FilePosition;
  /** CSV read `from` a place: the file's first bytes (at least up to `from.headerEnd`), its header row among them. */
  head?: Buffer;
  /** Opens the file's bytes from `start` to `end` inclusive (default: fs.createReadStream; tests count what is read). */
  open?: FileOpener;
  /**
   * NDJSON lines up to this one are split off but not parsed, and not handed out (a run recorded before
   * runs recorded places resumes reading from the start: its recorded lines were parsed for nothing).
   */
  skipThrough?: number;
}

export type FileOpener = (path: string, range: { start: number; end: number }) => Readable;

/**
 * Where a file goes on after a record: the byte the next record (or blank line) starts at, and the
 * line that byte is on, numbered as the parser numbers lines (for CSV csv-parse's count, which a run
 * records as its cursor). A CSV file also needs its header to be read from there: where the header row
 * ends (after its line break) and the file's record delimiter, and the line an editor shows there
 * (csv-record-starts.ts), which the reasons a run reports name.
 */
export interface FilePosition {
  byte: number;
  line: number;
  shownLine?: number;
  headerEnd?: number;
  lineBreak?: CsvLineBreak;
}

export type CsvLineBreak = 'crlf' | 'lf' | 'cr';

export type FileFormat = 'ndjson' | 'csv';

/**
 * One row of the file; `line` is 1-based (for a record over several lines, the last one): where the run
 * records it has read to. A problem names the line an editor shows the record starting on.
 */
export type FileRow = (
  | { line: number; raw: unknown }
  /** A row that is no record (a CSV row with too few cells): `rejected` with this reason, and the file goes on. */
  | { line: number; problem: string; sentSourceId?: string }
) & {
  /** Where the file goes on after this row; absent where the parser cannot tell it (the run then records none). */
  next?: FilePosition;
};

/**
 * The rows, and where the file stops being readable as records (a malformed CSV quote): the run stops
 * there. `line` places it among the rows; `fromLine` is the line an editor shows the record it is in
 * starting on (csv-record-starts.ts), which the run's reason names.
 */
export type FileRecord = FileRow | { line: number; fromLine: number; unreadable: string };

export const formatOf = (path: string): FileFormat => (/\.csv$/i.test(path) ? 'csv' : 'ndjson');

/** The default FileOpener: the file's bytes from disk. */
export const openFile: FileOpener = (path, range) => createReadStream(path, range);

export async function* fileRecords(path: string, format: FileFormat, reading: FileReading): AsyncGenerator<FileRecord> {
  const open = reading.open ?? openFile;
  const from = reading.from ?? { byte: 0, line: 1 };
  // `end` is inclusive; an empty file (or nothing left after `from`) has no byte to end at.
  const input = reading.bytes > from.byte ? open(path, { start: from.byte, end: reading.bytes - 1 }) : Readable.from([]);
  const { onChunk } = reading;
  if (onChunk) input.on('data', onChunk);
  try {
    if (format === 'ndjson') yield* ndjsonRecords(input, reading.maxLineBytes ?? MAX_LINE_BYTES, from, reading.skipThrough ?? 0);
    else yield* csvRecords(input, undefined, { from: reading.from, head: reading.head, positions: true });
  } finally {
    input.destroy();
  }
}

async function* ndjsonRecords(input: Readable, maxLineBytes: number, from: FilePosition, skipThrough: number): AsyncGenerator<FileRecord> {
  for await (const read of ndjsonLines(input, maxLineBytes, from)) {
    if (read.line <= skipThrough) continue;
    const next = { byte: read.next!, line: read.line + 1 };
    if ('tooLong' in read) {
      yield { line: read.line, problem: `line ${read.line} is longer than ${maxLineBytes} bytes`, next };
      continue;
    }
    if ('notUtf8' in read) {
      yield { line: read.line, problem: `line ${read.line} is not valid UTF-8`, next };
      continue;
    }
    // An editor's or a spreadsheet's byte-order mark is no part of the first record (CSV drops it too).
    const text = read.line === 1 ? read.text.replace(/^\uFEFF/, '') : read.text;
    if (text.trim() !== '') yield { ...rowOf(read.line, text), next };
  }
}

/**
 * An unparseable line is still a row: it is `rejected` with the reason, and the file goes on. So is a
 * line nested deeper than a push may be (the HTTP edge's limit): deeper, the checks after it overflowed
 * the stack, and the run could never record that slice. So is JSON that is no object (`[1]`, `null`,
 * `"x"`): no record, and named by its line like the others (the record checks' "a record must be a
 * JSON object" named none, and the audit keeps no line of a file record). So is a line that names a
 * key twice in one object, as the push route refuses such a body.
 */
function rowOf(line: number, text: string): FileRow {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { line, problem: `line ${line} is not valid JSON` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { line, problem: `line ${line} is ${jsonKind(raw)}, not a JSON object` };
  if (nestedDeeperThan(raw, MAX_JSON_DEPTH)) return { line, problem: `line ${line} nests JSON deeper than ${MAX_JSON_DEPTH} levels` };
  // JSON.parse kept the last of a repeated name; the push route refuses such a body (http-edge.ts).
  const duplicate = firstDuplicateKey(text);
  if (duplicate) return { line, problem: `line ${line} names ${JSON.stringify(duplicate.key)} twice in one object (at ${duplicate.path})` };
  return { line, raw };
}

const jsonKind = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'string'
        ? 'a string'
        : typeof value === 'number'
          ? 'a number'
          : 'true or false';
