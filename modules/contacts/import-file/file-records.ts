/**
 * Records of an export file, streamed line by line (a 1 GB file never sits in memory): NDJSON (one
 * JSON record per line) or CSV (RFC 4180 fields on one line; a header row names the columns:
 * sourceId, version, updatedAt, checksum, eventId, deleted, and any other column is a field).
 * Each record keeps its line number: a run records the last line it finished, and a resumed run
 * skips up to it.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export type FileFormat = 'ndjson' | 'csv';

export interface FileRecord {
  /** 1-based line number in the file. */
  line: number;
  raw: unknown;
}

export const formatOf = (path: string): FileFormat => (/\.csv$/i.test(path) ? 'csv' : 'ndjson');

export async function* fileRecords(path: string, format: FileFormat, onBytes?: (bytes: number) => void): AsyncGenerator<FileRecord> {
  const input = createReadStream(path);
  if (onBytes) input.on('data', (chunk) => onBytes(chunk.length));
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  let header: string[] | undefined;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    if (format === 'ndjson') {
      yield { line, raw: parseJson(text) };
    } else if (!header) {
      header = splitCsvLine(text);
    } else {
      yield { line, raw: csvRecord(header, splitCsvLine(text)) };
    }
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

const NUMERIC = new Set(['version']);

function csvRecord(header: string[], cells: string[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  header.forEach((column, i) => {
    const cell = cells[i] ?? '';
    if (column === 'deleted') record.deleted = cell === 'true' ? true : cell === '' || cell === 'false' ? undefined : cell;
    else if (NUMERIC.has(column)) record[column] = cell === '' ? undefined : /^\d+$/.test(cell) ? Number(cell) : cell;
    else if (['sourceId', 'updatedAt', 'checksum', 'eventId'].includes(column)) record[column] = cell === '' ? undefined : cell;
    else fields[column] = cell;
  });
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  if (record.deleted !== true) record.fields = fields;
  return record;
}

export function splitCsvLine(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}
