/**
 * Where each CSV record starts as an editor numbers the file's lines, for the reasons a run reports
 * (`line 6 is not valid UTF-8`, `got 1 on line 6`): a CRLF, an LF or a CR is one line break, inside a
 * quoted field too. csv-parse 7 counts a CRLF inside quotes as two lines, and numbers a record by the
 * line it ends on; those numbers stay what a run records and resumes from (csv-records.ts), since runs
 * recorded with them must go on in place. The record splitter (csv-record-bytes.ts) reads every byte
 * before csv-parse does and notes each record here; csv-parse's callbacks, which come in file order,
 * look up the record they are at by csv-parse's number. The splitter also notes where the file goes on
 * after each record (`next`): a run records it, and a resumed import reads the file from there.
 */
import type { FilePosition } from './file-records';

export class RecordStarts {
  private readonly ahead: Array<{ parseLine: number; firstLine: number; next?: FilePosition }> = [];
  /**
   * Read from a place (csv-record-bytes.ts), csv-parse numbers the lines after the header as if they
   * came right after it: this many lines more are the file's numbers (set once the header is read).
   */
  lineShift = 0;
  /** Where in the file the first byte handed to the splitter is (after a byte-order mark dropped before it). */
  firstByte = 0;

  /** @param positions whether the splitter notes where the file goes on after each record (a run's reads do). */
  constructor(readonly positions = false) {}
  private next = 0;
  /** Where the bytes handed to csv-parse unsplit begin (after a malformed quote): the record holding it. */
  private unsplitFrom: number | undefined;

  /** A record csv-parse will number `parseLine` (the line it ends on, its count) starts on editor line `firstLine`. */
  add(parseLine: number, firstLine: number, next?: FilePosition): void {
    this.ahead.push(next ? { parseLine, firstLine, next } : { parseLine, firstLine });
  }

  /** The rest of the file goes to csv-parse unsplit, from the record starting on editor line `firstLine`. */
  unsplit(firstLine: number): void {
    this.unsplitFrom = firstLine;
  }

  /**
   * The editor line of the record csv-parse is at when its count is `parseLine` (a record it emits or
   * skips, or an error inside one): records ending before it are done with and forgotten.
   */
  startOf(parseLine: number): number {
    return this.at(parseLine)?.firstLine ?? this.unsplitFrom ?? parseLine;
  }

  /** Where the file goes on after the record csv-parse numbers `parseLine` (undefined: not told, e.g. past a malformed quote). */
  nextAfter(parseLine: number): FilePosition | undefined {
    const entry = this.at(parseLine);
    return entry?.parseLine === parseLine ? entry.next : undefined;
  }

  private at(parseLine: number): { parseLine: number; firstLine: number; next?: FilePosition } | undefined {
    while (this.next < this.ahead.length && this.ahead[this.next].parseLine < parseLine) this.next++;
    // Dropped in blocks, so the queue neither grows with the file nor is shifted one entry at a time.
    if (this.next > 1024) {
      this.ahead.splice(0, this.next);
      this.next = 0;
    }
    return this.ahead[this.next];
  }
}
