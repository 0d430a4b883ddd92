import { Readable } from 'node:stream';
import { csvRecordParts, CsvRecordSplitter, type CsvRecordPart, type OversizeRecord } from './csv-record-bytes';

type Part = string | OversizeRecord;

/** The file handed over in chunks of `chunkBytes`; the byte parts as text. */
async function split(text: string, maxRecordBytes: number, chunkBytes = Infinity): Promise<Part[]> {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += Math.min(chunkBytes, bytes.length)) chunks.push(bytes.subarray(at, at + chunkBytes));
  const parts: Part[] = [];
  for await (const part of csvRecordParts(Readable.from(chunks), maxRecordBytes))
    parts.push(Buffer.isBuffer(part) ? part.toString() : part);
  return parts;
}

/** The shown lines (an editor's) are csv-parse's unless `more` says otherwise: they differ only after a quoted CRLF. */
const oversize = (firstLine: number, lastLine: number, lineBreaks: number, more: Partial<OversizeRecord> = {}): OversizeRecord => ({
  firstLine,
  lastLine,
  shownFirstLine: firstLine,
  shownLastLine: lastLine,
  lineBreaks,
  lineBreak: '\n',
  header: false,
  endless: false,
  ...more,
});

describe('csvRecordParts', () => {
  describe('read a byte at a time (every record across chunk boundaries)', () => {
    it('hands over each record whole, ending at line breaks outside quotes only (quoted CRLF, escaped quotes)', async () => {
      const file = 'id,notes\r\na,"one\r\ntwo"\r\nb,"say ""hi\r\n"" now"\r\nc,"""quoted"""\r\n\r\nd,last';
      expect(await split(file, 100, 1)).toEqual([
        'id,notes\r\n',
        'a,"one\r\ntwo"\r\n',
        'b,"say ""hi\r\n"" now"\r\n',
        'c,"""quoted"""\r\n',
        '\r\n',
        'd,last',
      ]);
    });

    it('ends records at the first line break found outside quotes, LF or CR, as csv-parse does', async () => {
      expect(await split('id\nx\ry\n"p\rq"\n', 100, 1)).toEqual(['id\n', 'x\ry\n', '"p\rq"\n']);
      expect(await split('id\rx\ny\r"p\r\nq"\r', 100, 1)).toEqual(['id\r', 'x\ny\r', '"p\r\nq"\r']);
    });
  });

  describe.each([
    ['read at once', Infinity],
    ['read in chunks of 3 bytes', 3],
    ['read a byte at a time', 1],
  ])('with a record past the bound in the middle (%s)', (_, chunkBytes) => {
    it('leaves its bytes out, says which lines it spans as csv-parse counts them, and hands over the records after it', async () => {
      // The long record spans lines 3-5 as csv-parse counts (a CRLF inside quotes as two lines), 3-4 as an editor shows them.
      const parts = await split('id,v\r\na,1\r\nb,"0123456789\r\nmore"\r\nc,2\r\nd,3', 12, chunkBytes);
      const text = parts.filter((part) => typeof part === 'string').join('');
      expect(text).toBe('id,v\r\na,1\r\nc,2\r\nd,3');
      expect(parts.filter((part) => typeof part !== 'string')).toEqual([oversize(3, 5, 3, { lineBreak: '\r\n', shownLastLine: 4 })]);
      expect(parts[parts.findIndex((part) => typeof part !== 'string') + 1]).toMatch(/^c,2\r\n/);
    });
  });

  describe('with the last record past the bound and without a line break', () => {
    it('says so with the line it ends on', async () => {
      expect(await split('id\na\n0123456789012', 12, 1)).toEqual(['id\n', 'a\n', oversize(3, 3, 0)]);
    });
  });

  describe.each([
    ['ends with a bare LF in a CRLF file', 'id\r\na\r\n0123456789012\n', oversize(3, 3, 1, { lineBreak: '\r\n' })],
    ['ends with a bare CR in an LF file', 'id\na\n0123456789012\r', oversize(3, 3, 1)],
    ['ends with a bare LF in a CR file', 'id\ra\r0123456789012\n', oversize(3, 3, 1, { lineBreak: '\r' })],
    ['ends with two bare LFs in a CRLF file', 'id\r\na\r\n0123456789012\n\n', oversize(3, 4, 2, { lineBreak: '\r\n' })],
  ])("with the last record past the bound, which %s (a line break that is not the file's)", (_, file, record) => {
    it.each([1, 3, Infinity])(
      'ends it on the line before the last line break, as csv-parse numbers the last record (chunks of %d)',
      async (chunkBytes) => {
        expect((await split(file, 12, chunkBytes)).filter((part) => typeof part !== 'string')).toEqual([record]);
      },
    );
  });

  describe('with the header row past the bound', () => {
    it('marks it as the header (no column can be named), from its first line on, blank lines before it no records', async () => {
      const header = oversize(2, 2, 0, { header: true, endless: true });
      expect(await split('\n0123456789012\na\n', 12)).toEqual(['\n', header]);
      expect(await split('\n0123456789012\na\n', 12, 1)).toEqual(['\n', header]);
    });

    it('reads no further than the chunk that takes it past the bound, even if the header never ends', async () => {
      let chunksRead = 0;
      async function* file() {
        yield Buffer.from('sourceId,');
        for (; chunksRead < 10_000; chunksRead++) yield Buffer.from('x'.repeat(100));
      }
      const parts: CsvRecordPart[] = [];
      for await (const part of csvRecordParts(Readable.from(file()), 1000)) parts.push(part);
      expect(parts).toEqual([oversize(1, 1, 0, { header: true, endless: true })]);
      // 10 chunks take it past the bound; the stream reads a few ahead of the splitter.
      expect(chunksRead).toBeLessThan(100);
    });
  });

  describe('with a quote opened past the bound and never closed', () => {
    it('says no end can be told (its last line is csv-parse\'s "Quote Not Closed" line)', async () => {
      expect(await split('id\n"never closed\na\nb\n', 12, 4)).toEqual(['id\n', oversize(2, 4, 3, { endless: true })]);
    });
  });

  describe('with a quote csv-parse refuses (inside an unquoted field, or text after a closing quote)', () => {
    it.each([
      ['id\na,b"c\nd\n', ['id\n', 'a,b"c\nd\n']],
      ['id\n"a"x\nd\n', ['id\n', '"a"x\nd\n']],
      ['id\r\n"a"\nb\r\nd\r\n', ['id\r\n', '"a"\nb\r\nd\r\n']],
      ['id\n"a"\rb\nd\n', ['id\n', '"a"\rb\nd\n']],
    ])('hands the rest over unsplit, for csv-parse to name the error: %j', async (file, parts) => {
      expect((await split(file, 100, 1)).join('')).toBe(parts.join(''));
      expect((await split(file, 100)).slice(0, 1)).toEqual([parts[0] + parts[1]]);
    });

    it('says no end can be told when the record is past the bound already', async () => {
      expect(await split('id\n"0123456789012" x\nd\n', 12, 1)).toEqual(['id\n', oversize(2, 2, 0, { endless: true })]);
    });

    it.each([1, 3, Infinity])(
      "takes no line break but the file's own for the end of a record past the bound after its closing quote (chunks of %d)",
      async (chunkBytes) => {
        const parts = await split('id\r\n"0123456789012"\nnext\r\nd\r\n', 12, chunkBytes);
        // Shown up to the byte that breaks it off, the bare LF, which csv-parse has counted already.
        expect(parts).toEqual(['id\r\n', oversize(2, 3, 0, { lineBreak: '\r\n', endless: true, shownLastLine: 2 })]);
      },
    );
  });

  describe('with a UTF-8 byte-order mark before a quoted header', () => {
    it('reads the mark as no part of the first field (the quote opens it)', async () => {
      expect(await split('\uFEFF"id",v\na,1\n', 100, 1)).toEqual(['\uFEFF"id",v\n', 'a,1\n']);
    });
  });

  describe('fed a record far past the bound', () => {
    it('never holds more than the bound of it', async () => {
      const splitter = new CsvRecordSplitter(10_000);
      let most = 0;
      const parts = splitter.push(Buffer.from('id\n"'));
      for (let i = 0; i < 1000; i++) {
        parts.push(...splitter.push(Buffer.from('x\n'.repeat(500))));
        most = Math.max(most, splitter.heldBytes);
      }
      parts.push(...splitter.push(Buffer.from('"\nnext\n')), ...splitter.end());
      expect(most).toBeLessThanOrEqual(10_000);
      expect(parts.map((part) => (Buffer.isBuffer(part) ? part.toString() : part))).toEqual([
        'id\n',
        oversize(2, 500_002, 500_001),
        'next\n',
      ]);
    });
  });
});
