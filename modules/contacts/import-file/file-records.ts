/**
 * Records of an export file, streamed (a 1 GB file never sits in memory): NDJSON, one JSON record
 * per line, or CSV (csv-records.ts). Each record keeps its line number: a run records the last line
 * it finished, and a resumed run skips up to it.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../../src/errors/json-depth';
import { csvRecords } from './csv-records';

export type FileFormat = 'ndjson' | 'csv';

/** One row of the file; `line` is 1-based (for a record over several lines, the last one). */
export type FileRow =
  | { line: number; raw: unknown }
  /** A row that is no record (a CSV row with too few cells): `rejected` with this reason, and the file goes on. */
  | { line: number; problem: string };

/** The rows, and where the file stops being readable as records (a malformed CSV quote): the run stops there. */
export type FileRecord = FileRow | { line: number; unreadable: string };

export const formatOf = (path: string): FileFormat => (/\.csv$/i.test(path) ? 'csv' : 'ndjson');

export async function* fileRecords(path: string, format: FileFormat, onBytes?: (bytes: number) => void): AsyncGenerator<FileRecord> {
  const input = createReadStream(path);
  if (onBytes) input.on('data', (chunk) => onBytes(chunk.length));
  try {
    yield* format === 'csv' ? csvRecords(input) : ndjsonRecords(input);
  } finally {
    input.destroy();
  }
}

async function* ndjsonRecords(input: Readable): AsyncGenerator<FileRecord> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    if (text.trim() !== '') yield rowOf(line, text);
  }
}

/**
 * An unparseable line is still a row: it is `rejected` with the reason, and the file goes on. So is a
 * line nested deeper than a push may be (the HTTP edge's limit): deeper, the checks after it overflowed
 * the stack, and the run could never record that slice.
 */
function rowOf(line: number, text: string): FileRow {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { line, problem: `line ${line} is not valid JSON` };
  }
  if (nestedDeeperThan(raw, MAX_JSON_DEPTH)) return { line, problem: `line ${line} nests JSON deeper than ${MAX_JSON_DEPTH} levels` };
  return { line, raw };
}
