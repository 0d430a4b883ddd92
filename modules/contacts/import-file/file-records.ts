/**
 * Records of an export file, streamed (a 1 GB file never sits in memory): NDJSON, one JSON record
 * per line, or CSV (csv-records.ts). Each record keeps its line number: a run records the last line
 * it finished, and a resumed run skips up to it.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
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
    if (text.trim() !== '') yield { line, raw: parseJson(text) };
  }
}

/** An unparseable line is still a record: it is `rejected` with the reason, and the file goes on. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { invalidLine: 'not valid JSON' };
  }
}
