/**
 * The records of a CSV export, read by csv-parse as RFC 4180 says: a header row names the columns,
 * and a quoted field may hold commas, doubled quotes and line breaks (a CRM's address or notes).
 *
 * A record carries the file line it ENDS on (csv-parse's `info.lines` when it emits the record): the
 * header is line 1, a one-line record carries its own line, and a record whose quoted field spans
 * lines 7–9 carries 9. That number only grows and is the same on every read of the file, so a run
 * that recorded "done up to line 9" skips exactly the records it finished. Two details: csv-parse 7
 * counts a CRLF inside a quoted field as two lines (the numbers run ahead of the file's; still growing
 * and repeatable), and for files without line breaks in quotes the numbers are the line splitter's of
 * before, so runs recorded by it resume in place. What a run REPORTS (a problem's reason, where the
 * file stops being readable) names instead the line an editor shows the record starting on
 * (csv-record-starts.ts): the record on lines 7–9 is "line 7", whatever its line breaks.
 *
 * What the parser cannot make a record of:
 * - a row with more or fewer cells than the header is that row's `problem` (rejected with the parser's
 *   reason, the file goes on), as an unparseable NDJSON line is;
 * - a record past MAX_RECORD_CHARS bytes is a `problem` too, numbered by the line it ends on: the
 *   record splitter in front of csv-parse (csv-record-bytes.ts) streams past it without holding it and
 *   hands csv-parse the records around it (oversize-records.ts keeps the line numbers the file's);
 * - a malformed quote (text after a closing quote, a quote inside an unquoted field, a quote never
 *   closed) makes the rest of the file `unreadable`: after it csv-parse no longer knows where records
 *   end (it stays in the quoted field and swallows the lines after it), so going on would merge or drop
 *   records without a trace. The run stops there for a human; everything before it stays recorded. A
 *   header row past the bound stops the file too (no column has a name), read no further than the bound.
 *
 * A record with a cell that is not valid UTF-8 is that record's `problem` (csv-cell-text.ts), a header
 * with one makes the file `unreadable`.
 *
 * Read `from` a place an earlier read said the file goes on at (a row's `next`), the header row is read
 * from the file's first bytes (`head`), then the file from that place: csv-parse reads the header and
 * the records after the place as one file, the splitter counts lines and bytes on from the place, and
 * csv-parse's numbers are moved by the lines skipped (RecordStarts.lineShift). The rows come out as a
 * read from the start gives them from there on.
 */
import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { DEFAULT_MAX_APPEND_BYTES } from '../../../src/event-store/append-validation';
import { cellText, cellTexts, withoutUtf8Bom, type CellBytes } from './csv-cell-text';
import { csvRecordParts } from './csv-record-bytes';
import { RecordStarts } from './csv-record-starts';
import type { FilePosition, FileRecord, FileRow } from './file-records';
import { OversizeRecords } from './oversize-records';

/**
 * A record longer than the event store takes in one append could never import. Unlike an NDJSON line,
 * a CSV record names no field per cell and escapes little (a doubled quote is JSON's \"), so its event
 * is no shorter than its bytes: the store's limit is the bound.
 */
export const MAX_RECORD_CHARS = DEFAULT_MAX_APPEND_BYTES;

/** Where to read from: `from` a row's `next`, with the file's first bytes (`head`, the header row among them). */
export interface CsvReadFrom {
  from?: FilePosition;
  head?: Buffer;
  /** Each row says where the file goes on after it (`next`). */
  positions?: boolean;
}

const DELIMITERS = { crlf: '\r\n', lf: '\n', cr: '\r' };

export async function* csvRecords(input: Readable, maxRecordBytes = MAX_RECORD_CHARS, place: CsvReadFrom = {}): AsyncGenerator<FileRecord> {
  const from = place.from && place.from.byte > 0 ? place.from : undefined;
  if (from && (from.headerEnd === undefined || !place.head || place.head.length < from.headerEnd))
    throw new Error('a CSV file is read from a place only with its header row (head up to headerEnd)');
  // The rows csv-parse skipped and the records too long to parse, in file order; each is handed out
  // before the first record after it.
  const skipped: FileRecord[] = [];
  const oversize = new OversizeRecords(maxRecordBytes);
  const starts = new RecordStarts(place.positions || from !== undefined);
  // csv-parse's line numbers, as the file's (read from a place, csv-parse counts on from the header).
  const fileLine = (parseLine: number) => parseLine + starts.lineShift;
  let badHeader: string | undefined;
  let columns: string[] = [];
  const parser = parse({
    // Typed as text, handed over as bytes (`encoding: null`).
    columns: (header: string[]) => {
      const names = (header as unknown as Buffer[]).map(cellText);
      columns = names.map((name) => name ?? '');
      badHeader = names.includes(undefined) ? 'the header is not valid UTF-8' : headerProblem(columns);
      return columns;
    },
    // Cells as bytes, decoded strictly by contactRow. Spreadsheet exports (Excel's "CSV UTF-8") start with
    // a byte-order mark, no part of the first column's name: it is dropped before (withoutUtf8Bom), since
    // csv-parse, finding one, would go back to decoding cells itself.
    encoding: null,
    bom: false,
    relax_column_count: false,
    // Read from a place, csv-parse sees the header right before that place: the delimiter is the one the file's header ended with.
    ...(from?.lineBreak ? { record_delimiter: DELIMITERS[from.lineBreak] } : {}),
    skip_empty_lines: true,
    skip_records_with_error: true,
    // The splitter hands over no record past the bound; this keeps csv-parse's own memory bounded whatever it reads.
    max_record_size: MAX_RECORD_CHARS,
    // Both callbacks run as csv-parse reads, in file order: the oversize records it passed go in their place.
    on_record: (record: Record<string, Buffer>, { lines }) => {
      const line = fileLine(lines);
      skipped.push(...oversize.before(line));
      const row = contactRow(line, starts.startOf(line), record);
      const next = starts.nextAfter(line);
      return next ? { ...row, next } : row;
    },
    on_skip: (error) => {
      if (!error) return;
      const line = fileLine(Number(error.lines));
      skipped.push(...oversize.before(line));
      const entry = skippedRow(error, line, columns, starts.startOf(line));
      const next = entry && !('unreadable' in entry) ? starts.nextAfter(line) : undefined;
      if (entry) skipped.push(next ? { ...entry, next } : entry);
    },
  });
  const dropped = (bytes: number) => (starts.firstByte = bytes);
  const bytes = from ? headThen(place.head!.subarray(0, from.headerEnd), input, dropped) : withoutUtf8Bom(input, dropped);
  const records = Readable.from(oversize.standIn(csvRecordParts(Readable.from(bytes), maxRecordBytes, starts, from)));
  // A read error of the file comes through `records` (the splitter reads the file). The file itself is
  // not listened to: a splitter that stops early (a header past the bound) ends its reading with an
  // AbortError, while csv-parse still has the records before the stop to hand over.
  records.once('error', (error) => parser.destroy(error));
  try {
    for await (const record of records.pipe(parser) as AsyncIterable<FileRecord>) {
      if (badHeader) break;
      while (skipped.length && skipped[0].line < record.line) {
        const entry = skipped.shift()!;
        yield entry;
        if ('unreadable' in entry) return;
      }
      yield record;
    }
  } finally {
    // Stopped early (an unreadable row), the reading ahead stops too.
    records.destroy();
  }
  if (badHeader) {
    yield { line: 1, fromLine: 1, unreadable: badHeader };
    return;
  }
  const rest = [...skipped, ...oversize.before(Infinity)];
  const stop = rest.findIndex((entry) => 'unreadable' in entry);
  yield* stop < 0 ? rest : rest.slice(0, stop + 1);
}

/**
 * A header naming a column twice would keep only one of its cells per row (silently: which one is the
 * parser's choice), and `__proto__` names no field an object can hold: either way records would lose
 * data without a trace, so the file is refused before its first record, for a human to fix. So is a
 * header without a `sourceId` column (an export calling it `id`, or `sourceId ` with a space): every
 * record would be rejected on its own, the whole file read for that, and the run end `completed`.
 */
function headerProblem(header: string[]): string | undefined {
  const seen = new Set<string>();
  for (const name of header) {
    if (name === '__proto__') return 'the header names a column __proto__, which no record field can be';
    if (seen.has(name)) return `the header names the column "${name}" twice`;
    seen.add(name);
  }
  if (!seen.has('sourceId')) return `the header names no sourceId column, which every record needs (its columns: ${namesOf(header)})`;
  return undefined;
}

/** Columns as a reason names them: quoted (a space shows), the first ten. */
const SHOWN_COLUMNS = 10;
const namesOf = (header: string[]) =>
  [
    ...header.slice(0, SHOWN_COLUMNS).map((name) => JSON.stringify(name)),
    ...(header.length > SHOWN_COLUMNS ? [`… ${header.length - SHOWN_COLUMNS} more`] : []),
  ].join(', ');

/**
 * The header row alone (as a read from the start hands it to the splitter, without a byte-order mark),
 * then the file from the place it is read from.
 */
async function* headThen(header: Buffer, rest: AsyncIterable<Buffer>, dropped: (bytes: number) => void): AsyncGenerator<Buffer> {
  yield* withoutUtf8Bom([header], dropped);
  yield* rest;
}

/** `shownLine`: where the record csv-parse stopped at starts, as an editor shows it; its message names that line too. */
function skippedRow(error: CsvError, line: number, header: string[], shownLine: number): FileRecord | undefined {
  const message = withCellText(error.message).replace(/\b(at|on) line \d+\b/g, `$1 line ${shownLine}`);
  if (error.code !== 'CSV_RECORD_INCONSISTENT_COLUMNS') return { line, fromLine: shownLine, unreadable: message };
  // A line of blanks only was skipped by the line splitter; it is no record.
  const cells = error.record as CellBytes[] | undefined;
  if (cells?.length === 1 && cellText(cells[0])?.trim() === '') return undefined;
  // A row one cell short still names its contact when the sourceId column is among its cells: its
  // rejection then shows in that contact's import history.
  const at = header.indexOf('sourceId');
  return problemRow(line, message, cells && at >= 0 && at < cells.length ? cells[at] : undefined);
}

function problemRow(line: number, problem: string, sourceIdCell: CellBytes | undefined): FileRow {
  const sentSourceId = sourceIdCell && cellText(sourceIdCell);
  return { line, problem, ...(sentSourceId ? { sentSourceId } : {}) };
}

/** csv-parse quotes a cell of bytes in its messages as their JSON (`{"type":"Buffer","data":[…]}`): shown as text. */
const withCellText = (message: string) =>
  message.replace(/\{"type":"Buffer","data":(\[[\d,]*\])\}/g, (_, bytes: string) =>
    JSON.stringify(Buffer.from(JSON.parse(bytes) as number[]).toString()),
  );

function contactRow(line: number, shownLine: number, cells: Record<string, Buffer>): FileRow {
  const row = cellTexts(cells);
  return row ? { line, raw: contactRecord(row) } : problemRow(line, `line ${shownLine} is not valid UTF-8`, cells.sourceId);
}

const NUMERIC = new Set(['version']);
const TEXT = new Set(['sourceId', 'updatedAt', 'checksum', 'eventId']);

/**
 * A cell written as a decimal number (JSON's number syntax, leading zeros allowed: spreadsheets pad) is
 * that number, as a push or an NDJSON line gives it: `1.0` and `1e0` are 1, `1.5` is 1.5, and the one
 * rule of contact-record.ts then takes or rejects the value the same way in all three formats. Any
 * other text stays text (rejected there: `version must be a non-negative integer`). `-0` is 0, as JSON
 * writes -0 when it is stored.
 */
const numberOfCell = (cell: string): number | string => (/^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(cell) ? Number(cell) + 0 : cell);

/** The column rules: the record's own columns by name, `deleted` as true/false, any other column a field. */
function contactRecord(row: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  for (const [column, cell] of Object.entries(row)) {
    if (column === 'deleted') record.deleted = cell === 'true' ? true : cell === '' || cell === 'false' ? undefined : cell;
    else if (NUMERIC.has(column)) record[column] = cell === '' ? undefined : numberOfCell(cell);
    else if (TEXT.has(column)) record[column] = cell === '' ? undefined : cell;
    else fields[column] = cell;
  }
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  if (record.deleted !== true) record.fields = fields;
  return record;
}
