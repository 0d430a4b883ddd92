/**
 * The CSV records too long to hand csv-parse (csv-record-bytes.ts), kept in their place. Blank lines
 * stand in for each (as many as it has line breaks, as csv-parse counts them; it skips blank lines), so
 * csv-parse numbers the records after it, and names their lines in its errors, as in the file.
 */
import type { CsvRecordPart, OversizeRecord } from './csv-record-bytes';
import type { FileRecord } from './file-records';

/** Blank lines are handed over in pieces no longer than this: a record of line breaks is never held whole either. */
const STAND_IN_PIECE_LINES = 16 * 1024;

export class OversizeRecords {
  /** Rows for the records left out that csv-parse has not passed yet, in file order. */
  private ahead: FileRecord[] = [];

  constructor(private readonly maxRecordBytes: number) {}

  /** The bytes for csv-parse: the records' own, and blank lines for each left out (noted here). */
  async *standIn(parts: AsyncIterable<CsvRecordPart>): AsyncGenerator<Buffer> {
    for await (const part of parts) {
      if (Buffer.isBuffer(part)) {
        yield part;
        continue;
      }
      this.ahead.push(oversizeRow(part, this.maxRecordBytes));
      for (let left = part.lineBreaks; left > 0; left -= STAND_IN_PIECE_LINES) {
        yield Buffer.from(part.lineBreak.repeat(Math.min(left, STAND_IN_PIECE_LINES)));
      }
    }
  }

  /** The rows of the records left out before `line`: call as csv-parse reads (its records and skips come in file order). */
  before(line: number): FileRecord[] {
    const rows: FileRecord[] = [];
    while (this.ahead.length && this.ahead[0].line < line) rows.push(this.ahead.shift()!);
    return rows;
  }
}

/** Placed by csv-parse's numbers (`line`), told by an editor's (csv-record-starts.ts). */
function oversizeRow(record: OversizeRecord, maxRecordBytes: number): FileRecord {
  const { firstLine, lastLine, shownFirstLine, shownLastLine, header, endless } = record;
  const where = shownFirstLine === shownLastLine ? `line ${shownFirstLine}` : `the record on lines ${shownFirstLine}-${shownLastLine}`;
  const tooLong = `is longer than ${maxRecordBytes} bytes`;
  // csv-parse's name for it, as before the splitter: an unclosed quote reads as one record to the end of the file.
  const endlessReason = `the record from line ${shownFirstLine} on ${tooLong} and has no end (a quote never closed or malformed)`;
  // The header is read no further than the bound: where it ends is not known, and it need not be.
  if (header)
    return { line: firstLine, fromLine: shownFirstLine, unreadable: `the header row (from line ${shownFirstLine} on) ${tooLong}` };
  if (endless) return { line: firstLine, fromLine: shownFirstLine, unreadable: `Max Record Size: ${endlessReason}` };
  return { line: lastLine, problem: `${where} ${tooLong}`, ...(record.next ? { next: record.next } : {}) };
}
