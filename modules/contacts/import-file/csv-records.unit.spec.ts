import { Readable } from 'node:stream';
import { csvRecords, MAX_RECORD_CHARS } from './csv-records';
import type { FileRecord } from './file-records';

/** The file handed over in chunks of `chunkBytes` (a quoted line break may straddle two reads). */
async function read(file: string | Buffer, chunkBytes = Infinity, maxRecordBytes?: number): Promise<FileRecord[]> {
  const bytes = Buffer.from(file);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += Math.min(chunkBytes, bytes.length)) chunks.push(bytes.subarray(at, at + chunkBytes));
  const records: FileRecord[] = [];
  for await (const record of csvRecords(Readable.from(chunks), maxRecordBytes)) records.push(record);
  return records;
}

describe('csvRecords', () => {
  describe.each([
    ['read at once', Infinity],
    ['read a byte at a time', 1],
  ])('with a quoted field holding a line break, a doubled quote and a comma (%s)', (_, chunkBytes) => {
    it('reads it as ONE record with the exact value, carrying the line the record ends on', async () => {
      const file = 'sourceId,version,notes,name\nc1,1,"line one\nsaid ""hi"", then left",Ada\nc2,2,plain,Bob\n';
      expect(await read(file, chunkBytes)).toEqual([
        { line: 3, raw: { sourceId: 'c1', version: 1, fields: { notes: 'line one\nsaid "hi", then left', name: 'Ada' } } },
        { line: 4, raw: { sourceId: 'c2', version: 2, fields: { notes: 'plain', name: 'Bob' } } },
      ]);
    });
  });

  describe.each([
    ['a column twice', 'sourceId,name,name\nc1,Ada,Lovelace\n', 'the header names the column "name" twice'],
    ['a column __proto__', 'sourceId,__proto__\nc1,x\n', 'the header names a column __proto__, which no record field can be'],
    ['a column twice and no record', 'sourceId,sourceId\n', 'the header names the column "sourceId" twice'],
  ])('with a header that names %s', (_, file, reason) => {
    it('refuses the file at its header, before any record (no cell is silently lost)', async () => {
      expect(await read(file)).toEqual([{ line: 1, fromLine: 1, unreadable: reason }]);
    });
  });

  describe.each([
    ['an export that calls it id', 'id,version,name\nc1,1,Ada\nc2,1,Bob\n', '"id", "version", "name"'],
    ['one spelled with a space', 'sourceId ,name\nc1,Ada\n', '"sourceId ", "name"'],
    [
      'many other columns',
      `${Array.from({ length: 12 }, (_, i) => `c${i}`).join(',')}\nx\n`,
      '"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", … 2 more',
    ],
  ])('with a header that names no sourceId column (%s)', (_, file, columns) => {
    it('refuses the file at its header, naming its columns: every record of it would only be rejected', async () => {
      expect(await read(file)).toEqual([
        { line: 1, fromLine: 1, unreadable: `the header names no sourceId column, which every record needs (its columns: ${columns})` },
      ]);
    });
  });

  describe('with a UTF-8 byte-order mark before the header (a spreadsheet export)', () => {
    it('reads the first column as sourceId, not as a field named after the mark', async () => {
      expect(await read('\uFEFFsourceId,name\nc1,Ada\n')).toEqual([{ line: 2, raw: { sourceId: 'c1', fields: { name: 'Ada' } } }]);
    });

    it('drops the mark when it comes a byte at a time, and before a quoted column name', async () => {
      expect(await read('\uFEFF"sourceId",name\nc1,Ada\n', 1)).toEqual([{ line: 2, raw: { sourceId: 'c1', fields: { name: 'Ada' } } }]);
    });
  });

  describe.each([
    ['read at once', Infinity],
    ['read a byte at a time', 1],
  ])('with cells that are not valid UTF-8 (0xFF, 0xFE, a cut 0xC3; %s)', (_, chunkBytes) => {
    it('hands each such record over as a problem naming invalid UTF-8, in its place, and reads on', async () => {
      const bytes = (hex: number) => Buffer.from([hex]);
      const file = Buffer.concat([
        Buffer.from('sourceId,n\nc1,a'),
        bytes(0xff),
        Buffer.from('b\nc2,a'),
        bytes(0xfe),
        Buffer.from('b\nc3,é \uFFFD\nc4,"a'),
        bytes(0xc3),
        Buffer.from('"\n'),
      ]);
      expect(await read(file, chunkBytes)).toEqual([
        { line: 2, problem: 'line 2 is not valid UTF-8', sentSourceId: 'c1' },
        { line: 3, problem: 'line 3 is not valid UTF-8', sentSourceId: 'c2' },
        { line: 4, raw: { sourceId: 'c3', fields: { n: 'é \uFFFD' } } },
        { line: 5, problem: 'line 5 is not valid UTF-8', sentSourceId: 'c4' },
      ]);
    });
  });

  describe('with a header that is not valid UTF-8', () => {
    it('refuses the file at its header', async () => {
      const file = Buffer.concat([Buffer.from('sourceId,n'), Buffer.from([0xff]), Buffer.from('\nc1,a\n')]);
      expect(await read(file)).toEqual([{ line: 1, fromLine: 1, unreadable: 'the header is not valid UTF-8' }]);
    });
  });

  // The CRLF numbers are pinned on purpose: a csv-parse that counted differently would move the lines recorded runs resume from.
  describe.each([
    ['blank lines (blanks only too)', 'sourceId,name\nc1,A\n\n   \nc2,"B\nC"\nc3,D', 'B\nC'],
    [
      'CRLF line ends (one inside a quoted field counts as two lines, as csv-parse 7 counts)',
      'sourceId,name\r\nc1,A\r\n\r\nc2,"B\r\nC"\r\nc3,D\r\n',
      'B\r\nC',
    ],
  ])('with %s', (_, file, quotedBreak) => {
    it('skips the blank lines and numbers records by the lines of the file', async () => {
      expect((await read(file)).map((r) => [r.line, 'raw' in r && r.raw])).toEqual([
        [2, { sourceId: 'c1', fields: { name: 'A' } }],
        [6, { sourceId: 'c2', fields: { name: quotedBreak } }],
        [7, { sourceId: 'c3', fields: { name: 'D' } }],
      ]);
    });
  });

  // `line` is where a run records it has read to (csv-parse's count, pinned above); the reasons name the
  // line an editor shows the record starting on: a CRLF or an LF inside quotes is one line break.
  describe.each([
    ['CRLF', '\r\n'],
    ['LF', '\n'],
  ])('with %s line breaks inside quoted fields before rejected rows', (_, br) => {
    // Lines as an editor shows them: 1 header, 2-4 c1, 5 c2 (short), 6-7 c3 (long), 8 c4 (not UTF-8, over two lines 8-9), 10 c5.
    const file = Buffer.concat([
      Buffer.from(`sourceId,name${br}c1,"a${br}b${br}c"${br}c2${br}c3,"x${br}y",extra${br}c4,"\xff`, 'latin1'),
      Buffer.from(`${br}z"${br}c5,E${br}`),
    ]);

    it.each([Infinity, 1])('names the line each rejected record starts on (chunks of %d)', async (chunkBytes) => {
      const problems = (await read(file, chunkBytes)).flatMap((r) => ('problem' in r ? [r.problem] : []));
      expect(problems).toEqual([
        'Invalid Record Length: columns length is 2, got 1 on line 5',
        'Invalid Record Length: columns length is 2, got 3 on line 6',
        'line 8 is not valid UTF-8',
      ]);
    });
  });

  describe.each([
    ['CRLF', '\r\n'],
    ['LF', '\n'],
  ])('with a short last row and no line break after it (%s)', (_, br) => {
    it.each([Infinity, 1])('names the line it starts on (chunks of %d)', async (chunkBytes) => {
      const records = await read(`sourceId,name${br}c1,"a${br}b"${br}c2`, chunkBytes);
      expect(records.at(-1)).toEqual({
        line: expect.any(Number),
        problem: 'Invalid Record Length: columns length is 2, got 1 on line 4',
        sentSourceId: 'c2',
      });
    });
  });

  describe('with a malformed quote after a quoted CRLF', () => {
    it('says from which line, as an editor shows it, the file cannot be read', async () => {
      expect(await read('sourceId,name\r\nc1,"a\r\nb"\r\nc2,"B"x\r\nc3,C\r\n')).toEqual([
        { line: 4, raw: { sourceId: 'c1', fields: { name: 'a\r\nb' } } },
        { line: 5, fromLine: 4, unreadable: expect.stringMatching(/^Invalid Closing Quote: .*at line 4/) },
      ]);
    });
  });

  describe('with rows that have fewer or more cells than the header', () => {
    it('hands each over as a problem with the reason, in its place, and reads on', async () => {
      const records = await read('sourceId,name\nc1,A\nc2\nc3,C,extra\nc4,D\n');
      expect(records).toEqual([
        { line: 2, raw: { sourceId: 'c1', fields: { name: 'A' } } },
        { line: 3, problem: expect.stringMatching(/columns length is 2, got 1 on line 3/), sentSourceId: 'c2' },
        { line: 4, problem: expect.stringMatching(/columns length is 2, got 3 on line 4/), sentSourceId: 'c3' },
        { line: 5, raw: { sourceId: 'c4', fields: { name: 'D' } } },
      ]);
    });
  });

  describe('with a short row that lacks the sourceId column, or has it empty', () => {
    it('hands it over as a problem without a key', async () => {
      expect(await read('name,sourceId\nA\nC,,x\nB,b1,x\n')).toEqual([
        { line: 2, problem: expect.stringMatching(/got 1 on line 2/) },
        { line: 3, problem: expect.stringMatching(/got 3 on line 3/) },
        { line: 4, problem: expect.stringMatching(/got 3 on line 4/), sentSourceId: 'b1' },
      ]);
    });
  });

  describe.each([
    ['text after a closing quote', 'c2,"B"x\nc3,C\n', 3, /Invalid Closing Quote/],
    ['a quote inside an unquoted field', 'c2,B"x"\nc3,C\n', 3, /Invalid Opening Quote/],
    ['a quote never closed', 'c2,"B\nc3,C\n', 4, /Quote Not Closed/],
  ])('with %s', (_, rows, line, reason) => {
    it('hands over the records before it, then where the file stops being readable and why, and nothing after', async () => {
      expect(await read(`sourceId,name\nc1,A\n${rows}`)).toEqual([
        { line: 2, raw: { sourceId: 'c1', fields: { name: 'A' } } },
        { line, fromLine: 3, unreadable: expect.stringMatching(reason) },
      ]);
    });
  });

  describe.each([
    ['read at once', Infinity],
    ['read a byte at a time', 1],
  ])('with a record past the bound between others (%s)', (_, chunkBytes) => {
    // c2 spans lines 3-4 (3-5 as csv-parse counts: a CRLF inside quotes as two lines); c4 is a row one cell short.
    const file = 'sourceId,name\r\nc1,A\r\nc2,"0123456789\r\n0123456789"\r\nc3,"x\r\ny"\r\nc4\r\nc5,E';

    it('rejects it with the lines an editor shows it on, and reads the records after it with the numbers they have without it', async () => {
      const records = await read(file, chunkBytes, 20);
      expect(records).toEqual([
        { line: 2, raw: { sourceId: 'c1', fields: { name: 'A' } } },
        { line: 5, problem: 'the record on lines 3-4 is longer than 20 bytes' },
        { line: 8, raw: { sourceId: 'c3', fields: { name: 'x\r\ny' } } },
        { line: 9, problem: 'Invalid Record Length: columns length is 2, got 1 on line 7', sentSourceId: 'c4' },
        { line: 10, raw: { sourceId: 'c5', fields: { name: 'E' } } },
      ]);
      expect(records.map((r) => r.line)).toEqual((await read(file, chunkBytes)).map((r) => r.line));
    });
  });

  describe('with the last record past the bound', () => {
    it('rejects it after the records before it', async () => {
      expect(await read('sourceId,name\nc1,A\nc2,0123456789012345678901', Infinity, 20)).toEqual([
        { line: 2, raw: { sourceId: 'c1', fields: { name: 'A' } } },
        { line: 3, problem: 'line 3 is longer than 20 bytes' },
      ]);
    });
  });

  describe.each([
    ['a bare LF in a CRLF file', 'sourceId,name\r\nc1,A\r\nc2,0123456789012345678901\n'],
    ['a bare CR in an LF file', 'sourceId,name\nc1,A\nc2,0123456789012345678901\r'],
    ['a bare LF in a CR file', 'sourceId,name\rc1,A\rc2,0123456789012345678901\n'],
  ])('with the last record past the bound ending, at the end of the file, in %s', (_, file) => {
    it.each([1, Infinity])(
      'rejects it on the line csv-parse numbers it below the bound, not the line after (chunks of %d)',
      async (chunkBytes) => {
        const records = await read(file, chunkBytes, 20);
        expect(records).toEqual([
          { line: 2, raw: { sourceId: 'c1', fields: { name: 'A' } } },
          { line: 3, problem: 'line 3 is longer than 20 bytes' },
        ]);
        expect(records.map((r) => r.line)).toEqual((await read(file, chunkBytes)).map((r) => r.line));
      },
    );
  });

  describe('with a header row past the bound', () => {
    it('refuses the file at its header', async () => {
      expect(await read('sourceId,name0123456789012345678901\nc1,A\n', Infinity, 20)).toEqual([
        { line: 1, fromLine: 1, unreadable: 'the header row (from line 1 on) is longer than 20 bytes' },
      ]);
    });

    it("stops reading the file once the header is past the bound, without waiting for its end (or the file's)", async () => {
      let chunksRead = 0;
      async function* file() {
        yield Buffer.from('sourceId,name');
        for (; chunksRead < 10_000; chunksRead++) yield Buffer.from('x'.repeat(100));
        yield Buffer.from('\nc1,A\n');
      }
      const records: FileRecord[] = [];
      for await (const record of csvRecords(Readable.from(file()), 1000)) records.push(record);
      expect(records).toEqual([{ line: 1, fromLine: 1, unreadable: 'the header row (from line 1 on) is longer than 1000 bytes' }]);
      expect(chunksRead).toBeLessThan(100);
    });
  });

  describe('with a quote inside an unquoted field', () => {
    it('quotes the cell before it as text in the reason', async () => {
      expect(await read('sourceId,name\nc2,Bé"x"\n')).toEqual([
        { line: 2, fromLine: 2, unreadable: expect.stringContaining('value is "Bé"') },
      ]);
    });
  });

  describe('with a quote never closed in a large file', () => {
    it('stops once the record passes the size limit instead of holding the rest of the file', async () => {
      const rest = 'c,x\n'.repeat(Math.ceil(MAX_RECORD_CHARS / 4) + 1000);
      const records = await read(`sourceId,name\nc1,"never closed\n${rest}`, 64 * 1024);
      expect(records).toEqual([{ line: expect.any(Number), fromLine: 2, unreadable: expect.stringMatching(/Max Record Size/) }]);
      expect(records[0].line).toBeLessThan(3 + rest.length / 4);
    });
  });
});
