/**
 * The records of a CSV file, found on the bytes before csv-parse reads them, so that a record past the
 * size bound is never held: csv-parse 7 emits nothing more after `max_record_size` (skip-on-error or not),
 * so one oversize record stopped the whole file. Here its bytes are counted and dropped until it ends,
 * it comes out as an `OversizeRecord`, and the bytes of the records around it go on to csv-parse as
 * they are (so BOM, blank lines, cell counts and header stay csv-parse's business).
 *
 * Records end where csv-parse ends them (RFC 4180): at the first line break outside quotes, the
 * record delimiter being whichever of CRLF, LF or CR comes first outside quotes in the file (csv-parse
 * finds it the same way); `""` inside quotes is a quote. Lines are counted as csv-parse counts them
 * (every CR and LF, except the LF of a CRLF record delimiter), so an oversize record's numbers match
 * the numbers of the records around it. A quote csv-parse refuses (one inside an unquoted field, text
 * after a closing quote) makes the rest of the file unreadable to both: from there on the bytes go to
 * csv-parse unsplit, and it names the error.
 *
 * A header row past the bound, or a record past it whose end cannot be told, leaves nothing more to
 * read: the splitter stops there and the file is read no further (a 1 GB file with a header that never
 * ends costs one bound of bytes, not a read to its end).
 */
import type { Readable } from 'node:stream';
import type { RecordStarts } from './csv-record-starts';
import type { CsvLineBreak, FilePosition } from './file-records';

/** A record past the bound; its lines are csv-parse's numbers, its shown lines an editor's (csv-record-starts.ts). */
export interface OversizeRecord {
  firstLine: number;
  lastLine: number;
  shownFirstLine: number;
  shownLastLine: number;
  /** The line breaks csv-parse would have counted in it (its own delimiter included). */
  lineBreaks: number;
  /** The file's record delimiter: blank lines of it stand in for the record where csv-parse counts lines. */
  lineBreak: string;
  /** The file's first record, the header row csv-parse would have named the columns from. */
  header: boolean;
  /**
   * Where it ends is not told: its quote is still open at the end of the file, a malformed quote is in
   * it, or it is the header, read no further than the bound (its `lastLine` is its `firstLine`).
   */
  endless: boolean;
  /** Where the file goes on after it (only when the splitter is told where records start: RecordStarts). */
  next?: FilePosition;
}

/** Whole records' bytes to parse, or a record left out. */
export type CsvRecordPart = Buffer | OversizeRecord;

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];
const LINE_BREAKS = { crlf: '\r\n', lf: '\n', cr: '\r' };

export class CsvRecordSplitter {
  /** The bytes of the record being read, from earlier chunks (none once it is past the bound). */
  private pending: Buffer[] = [];
  private held = 0;
  private tooLong = false;
  private delimiter: 'crlf' | 'lf' | 'cr' | undefined;
  private quoted = false;
  /** A quote just seen inside quotes: the next byte tells an escaped quote from a closing one. */
  private quoteInQuotes = false;
  private fieldStart = true;
  /** An unquoted CR ended the last chunk: the next byte tells a CRLF from a CR. */
  private crAtEnd = false;
  /** That CR came right after a closing quote, where only the file's record break may follow. */
  private crAfterClosingQuote = false;
  /** Split, or past a malformed quote: the rest handed to csv-parse as it is, or nothing more at all (`stopped`). */
  private mode: 'split' | 'unsplit' | 'stopped' = 'split';
  /** The bytes of a UTF-8 byte-order mark still to come at the file's start (csv-parse drops it: no field's bytes). */
  private bomLeft = BOM.length;
  private line = 1;
  private recordLine = 1;
  /** Lines as an editor numbers them (a CRLF is one line break, inside quotes too), for the reasons a run reports. */
  private shownLine = 1;
  private recordShownLine = 1;
  /** The last byte counted for `shownLine` was a CR: an LF right after it ends the same line. */
  private lastWasCr = false;
  private recordHasBytes = false;
  /** The last byte read was a CR or LF: a record the file's end ends after it ends on the line before (csv-parse's number). */
  private endsOnLineBreak = false;
  private recordsSeen = 0;
  /** The file offset of the chunk being split, and of the one after it (counted only with `starts`). */
  private chunkAt = 0;
  private nextChunkAt: number | undefined;
  /** Where the header row ends in the file (after its line break). */
  private headerEnd: number | undefined;
  private out: CsvRecordPart[] = [];
  /** Records finished in the chunk being split, handed over together. */
  private ready: Buffer[] = [];

  constructor(
    private readonly maxRecordBytes: number,
    /** Told where each record handed to csv-parse starts, as an editor numbers lines, and where the file goes on after it. */
    private readonly starts?: RecordStarts,
    /**
     * The file is read from this place: the first chunk is the file's header row alone (its line break
     * included), the next chunks the file from `from.byte` on. Counted from there, lines, editor lines
     * and bytes go on as a read from the start counts them (the jump is told to `starts`: lineShift).
     */
    private readonly from?: FilePosition,
  ) {
    // The header's own line break decided the record delimiter; read alone, a CR at its end cannot tell.
    if (from?.lineBreak) this.delimiter = from.lineBreak;
  }

  /** What is held of the record being read: never more than the bound. */
  get heldBytes(): number {
    return this.held;
  }

  /** Nothing more can come out: the rest of the file need not be read. */
  get stopped(): boolean {
    return this.mode === 'stopped';
  }

  push(chunk: Buffer): CsvRecordPart[] {
    this.chunkAt = this.nextChunkAt ??= this.starts?.firstByte ?? 0;
    this.nextChunkAt += chunk.length;
    if (this.mode !== 'split') return this.mode === 'unsplit' && chunk.length ? [chunk] : [];
    let start = 0;
    if (this.crAtEnd) {
      this.crAtEnd = false;
      let goesOn = true;
      if (chunk[0] === LF) {
        this.delimiter ??= 'crlf';
        goesOn = this.finish(chunk.subarray(0, 1), { endsAt: 1 });
        start = 1;
      } else if (this.delimiter === undefined) {
        this.delimiter = 'cr';
        goesOn = this.finish(chunk.subarray(0, 0), { endsAt: 0 });
      } else if (this.crAfterClosingQuote) {
        this.breakOff(chunk, 0, 0);
        return this.handOver();
      } else this.fieldStart = false;
      if (!goesOn) return this.handOver();
    }
    for (let at = start; at < chunk.length; at++) {
      const byte = chunk[at];
      if (this.bomLeft > 0 && this.isBom(byte)) continue;
      this.endsOnLineBreak = byte === LF || byte === CR;
      if (!this.endsOnLineBreak) this.recordHasBytes = true;
      let afterClosingQuote = false;
      if (this.quoteInQuotes) {
        this.quoteInQuotes = false;
        if (byte === QUOTE) continue;
        if (byte !== COMMA && byte !== LF && byte !== CR) {
          this.breakOff(chunk, start, at);
          return this.handOver();
        }
        this.quoted = false;
        afterClosingQuote = true;
      } else if (this.quoted) {
        if (byte === QUOTE) this.quoteInQuotes = true;
        else if (byte === LF || byte === CR) this.line++;
        continue;
      }
      if (byte === QUOTE) {
        if (!this.fieldStart) {
          this.breakOff(chunk, start, at);
          return this.handOver();
        }
        this.quoted = true;
        this.fieldStart = false;
      } else if (byte === LF || byte === CR) {
        this.line++;
        const ends = this.endsRecord(chunk, at);
        if (ends === 'wait') {
          this.crAtEnd = true;
          this.crAfterClosingQuote = afterClosingQuote;
        } else if (ends) {
          at += ends - 1;
          if (!this.finish(chunk.subarray(start, at + 1), { endsAt: at + 1 })) return this.handOver();
          start = at + 1;
        } else if (afterClosingQuote) {
          // A line break that is not the file's record break, after a closing quote: csv-parse refuses it
          // ("Invalid Closing Quote"), so the record must not be taken for one that ends here.
          this.breakOff(chunk, start, at);
          return this.handOver();
        } else this.fieldStart = false;
      } else this.fieldStart = byte === COMMA;
    }
    this.keep(chunk.subarray(start));
    return this.handOver();
  }

  /** The last record, which may end without a line break. */
  end(): CsvRecordPart[] {
    if (this.mode !== 'split') return [];
    if (this.held > 0 || this.tooLong)
      this.finish(Buffer.alloc(0), { atEnd: true, endsAt: this.nextChunkAt === undefined ? 0 : this.nextChunkAt - this.chunkAt });
    return this.handOver();
  }

  /** The length of the record delimiter starting at `at` (0 if the byte is a field's), or 'wait' for the next chunk. */
  private endsRecord(chunk: Buffer, at: number): number | 'wait' {
    const byte = chunk[at];
    if (byte === LF) {
      this.delimiter ??= 'lf';
      return this.delimiter === 'lf' ? 1 : 0;
    }
    if (this.delimiter === 'cr') return 1;
    if (this.delimiter === 'lf') return 0;
    if (at + 1 === chunk.length) return 'wait';
    if (chunk[at + 1] === LF) {
      this.delimiter = 'crlf';
      return 2;
    }
    if (this.delimiter === undefined) {
      this.delimiter = 'cr';
      return 1;
    }
    return 0;
  }

  private isBom(byte: number): boolean {
    if (byte === BOM[BOM.length - this.bomLeft]) return this.bomLeft-- > 0;
    // Part of a mark is no mark: csv-parse reads those bytes as the first field's.
    if (this.bomLeft < BOM.length) this.fieldStart = false;
    this.bomLeft = 0;
    return false;
  }

  /** Every byte the splitter reads comes through here once, in file order, until the rest goes unsplit. */
  private keep(bytes: Buffer): void {
    this.countShownLines(bytes);
    if (this.tooLong || bytes.length === 0) return;
    this.held += bytes.length;
    if (this.held > this.maxRecordBytes) {
      this.tooLong = true;
      this.pending = [];
      this.held = 0;
      // No record can be read without the header: known to be past the bound, it need not be read to its end.
      if (this.recordsSeen === 0 && this.recordHasBytes) this.stopAtHeader();
    } else this.pending.push(bytes);
  }

  /** Counts the line breaks an editor shows: a CR, and an LF not right after a CR. */
  private countShownLines(bytes: Buffer): void {
    if (bytes.length === 0) return;
    let lf = bytes.indexOf(LF);
    let cr = bytes.indexOf(CR);
    while (lf >= 0 || cr >= 0) {
      if (cr >= 0 && (lf < 0 || cr < lf)) {
        this.shownLine++;
        cr = bytes.indexOf(CR, cr + 1);
      } else {
        if (!(lf === 0 ? this.lastWasCr : bytes[lf - 1] === CR)) this.shownLine++;
        lf = bytes.indexOf(LF, lf + 1);
      }
    }
    this.lastWasCr = bytes[bytes.length - 1] === CR;
  }

  /**
   * The header is past the bound. Told the same way wherever the chunks end (whether its end was read or
   * not), from its first line on; csv-parse gets no stand-in for it, as no record comes after it.
   */
  private stopAtHeader(): void {
    this.handOverReady();
    const lineBreak = LINE_BREAKS[this.delimiter ?? 'lf'];
    const lines = {
      firstLine: this.recordLine,
      lastLine: this.recordLine,
      shownFirstLine: this.recordShownLine,
      shownLastLine: this.recordShownLine,
    };
    this.out.push({ ...lines, lineBreaks: 0, lineBreak, header: true, endless: true });
    this.mode = 'stopped';
  }

  /** The record ends with `last`, the rest of its bytes in this chunk; false once nothing more can be read. */
  private finish(last: Buffer, { atEnd = false, endsAt }: { atEnd?: boolean; endsAt: number }): boolean {
    this.keep(last);
    if (this.mode === 'stopped') return false;
    if (this.recordHasBytes) this.recordsSeen++;
    const next = this.starts?.positions ? this.nextPosition(this.chunkAt + endsAt) : undefined;
    if (this.tooLong && this.recordsSeen === 1 && this.recordHasBytes) this.stopAtHeader();
    else if (this.tooLong) {
      this.handOverReady();
      const lineBreak = LINE_BREAKS[this.delimiter ?? 'lf'];
      const endless = atEnd && this.quoted && !this.quoteInQuotes;
      const lines = {
        firstLine: this.recordLine,
        lastLine: this.lastLine(atEnd),
        shownFirstLine: this.recordShownLine,
        shownLastLine: this.lastShownLine(atEnd),
      };
      this.out.push({ ...lines, lineBreaks: this.line - this.recordLine, lineBreak, header: false, endless, ...(next ? { next } : {}) });
    } else {
      if (this.recordHasBytes) this.starts?.add(this.lastLine(atEnd), this.recordShownLine, next);
      this.ready = this.ready.concat(this.pending);
    }
    if (this.recordHasBytes && this.recordsSeen === 1 && this.from) this.jumpTo(this.from);
    this.pending = [];
    this.held = 0;
    this.tooLong = false;
    this.recordLine = this.line;
    this.recordShownLine = this.shownLine;
    this.recordHasBytes = false;
    this.fieldStart = true;
    return this.mode === 'split';
  }

  /**
   * Where the file goes on after the record just finished at byte `end`: the lines counted so far
   * include its line break. Known only once the header (the first record) has ended, which a read
   * from there needs again.
   */
  private nextPosition(end: number): FilePosition | undefined {
    if (this.recordHasBytes && this.recordsSeen === 1 && this.headerEnd === undefined) this.headerEnd = end;
    if (this.headerEnd === undefined || this.delimiter === undefined) return undefined;
    const lineBreak: CsvLineBreak = this.delimiter;
    return { byte: end, line: this.line, shownLine: this.shownLine, headerEnd: this.headerEnd, lineBreak };
  }

  /** The header row was read alone: the file goes on at `from`, counted as a read from the start counts it there. */
  private jumpTo(from: FilePosition): void {
    this.starts!.lineShift = from.line - this.line;
    this.line = from.line;
    this.shownLine = from.shownLine ?? from.line;
    // The byte before `from` ends a record delimiter: a CR only in a file whose records end in a lone CR.
    this.lastWasCr = from.lineBreak === 'cr';
    this.nextChunkAt = from.byte;
  }

  /**
   * The line a record just finished ends on: the line before the one its line break starts (its own
   * delimiter's, or, at the file's end, a line break that is not the file's, a bare LF in a CRLF file,
   * which csv-parse counts only after it has numbered the last record), or the last line of a file
   * that ends without one. In csv-parse's count, and as an editor shows it.
   */
  private lastLine(atEnd: boolean): number {
    return atEnd && !this.endsOnLineBreak ? this.line : this.line - 1;
  }

  private lastShownLine(atEnd: boolean): number {
    return atEnd && !this.endsOnLineBreak ? this.shownLine : this.shownLine - 1;
  }

  /**
   * A quote csv-parse refuses, at `at`: the rest goes to it as it is, unless this record is past the
   * bound already (its bytes before `at` counted, so that where the chunks happen to end changes nothing).
   */
  private breakOff(chunk: Buffer, start: number, at: number): void {
    const tooLong = this.tooLong || this.held + (at - start) > this.maxRecordBytes;
    this.mode = tooLong ? 'stopped' : 'unsplit';
    if (tooLong) {
      if (this.recordsSeen === 0 && this.recordHasBytes) return this.stopAtHeader();
      this.handOverReady();
      const lineBreak = LINE_BREAKS[this.delimiter ?? 'lf'];
      this.countShownLines(chunk.subarray(start, at));
      const lines = {
        firstLine: this.recordLine,
        lastLine: this.line,
        shownFirstLine: this.recordShownLine,
        shownLastLine: this.shownLine,
      };
      this.out.push({ ...lines, lineBreaks: 0, lineBreak, header: false, endless: true });
      return;
    }
    this.starts?.unsplit(this.recordShownLine);
    this.ready = this.ready.concat(this.pending, [chunk.subarray(start)]);
    this.pending = [];
    this.held = 0;
  }

  private handOverReady(): void {
    if (this.ready.length) this.out.push(this.ready.length === 1 ? this.ready[0] : Buffer.concat(this.ready));
    this.ready = [];
  }

  private handOver(): CsvRecordPart[] {
    this.handOverReady();
    const parts = this.out;
    this.out = [];
    return parts;
  }
}

export async function* csvRecordParts(
  input: Readable,
  maxRecordBytes: number,
  starts?: RecordStarts,
  from?: FilePosition,
): AsyncGenerator<CsvRecordPart> {
  const splitter = new CsvRecordSplitter(maxRecordBytes, starts, from);
  for await (const chunk of input as AsyncIterable<Buffer>) {
    yield* splitter.push(chunk);
    // Leaving the loop ends the input's reading (its iterator destroys it).
    if (splitter.stopped) return;
  }
  yield* splitter.end();
}
