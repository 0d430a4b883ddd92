/**
 * A read from the place a row says the file goes on at (`next`) gives exactly the rows a read from the
 * start gives after that row — line numbers, rejections and their reasons, and the next places — for
 * every row of NDJSON and CSV files with every kind of line break, quoted line breaks, blank lines,
 * byte-order marks, rows one cell short, bytes that are not UTF-8 and a record past the size bound;
 * read whole and read in small chunks (7 bytes; 4,099 for the file over 1 MiB), so that line breaks and
 * quotes straddle reads. And such a read
 * opens the file at that place: not one byte before it (but the CSV header, which is given) is read.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileRecords, type FileFormat, type FileOpener, type FilePosition, type FileRecord } from './file-records';
import { MAX_RECORD_CHARS } from './csv-records';

const dir = mkdtempSync(join(tmpdir(), 'idem-file-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BOM = '\uFEFF';
const notUtf8 = (text: string) => Buffer.concat([Buffer.from(text), Buffer.from([0xff]), Buffer.from('x')]);

const FILES: Array<[string, FileFormat, Buffer]> = [
  [
    'NDJSON with \\n, \\r\\n and \\r, blank lines, a BOM, broken and non-UTF-8 lines',
    'ndjson',
    Buffer.concat([
      Buffer.from(`${BOM}{"sourceId":"a","fields":{}}\r\n\n{"sourceId":"b","fields":{}}\r{"sourceId":"c"\n\r\n`),
      notUtf8('{"sourceId":"d","fields":{"n":"'),
      Buffer.from('"}}\n[1]\n{"sourceId":"e","fields":{}}\r\r{"sourceId":"f","fields":{}}'),
    ]),
  ],
  [
    'CSV with LF, quoted line breaks (LF and CRLF), blank lines, a short row, a BOM and a non-UTF-8 cell',
    'csv',
    Buffer.concat([
      Buffer.from(`${BOM}sourceId,version,notes\nc1,1,"two\nlines"\n\nc2,2,"crlf\r\ninside"\nc3,3\nc4,4,plain\n`),
      notUtf8('c5,5,'),
      Buffer.from('\nc6,6,"a ""quote"""\n\n\nc7,7,last'),
    ]),
  ],
  ['CSV with CRLF records and quoted line breaks', 'csv', Buffer.from('sourceId,notes\r\nc1,"a\r\nb"\r\nc2,x\r\n\r\nc3,"\n"\r\nc4,y\r\n')],
  ['CSV with CR records, one record starting with an LF', 'csv', Buffer.from('sourceId,notes\rc1,a\rc2,"b\rc"\r\nc3,x\rc4,y\r')],
  [
    'CSV with a record past the size bound between others',
    'csv',
    Buffer.from(`sourceId,notes\nc1,a\nc2,"${'x'.repeat(MAX_RECORD_CHARS + 10)}"\nc3,"b\nc"\nc4,d\n`),
  ],
  ['CSV with a header over two lines', 'csv', Buffer.from('sourceId,"no\ntes"\nc1,a\nc2,b\n')],
];

function write(name: string, bytes: Buffer, format: FileFormat): string {
  const path = join(dir, `${name.replace(/\W+/g, '-').slice(0, 40)}.${format}`);
  writeFileSync(path, bytes);
  return path;
}

interface Reads {
  starts: number[];
  bytes: number;
}

function opener(chunkBytes: number | undefined, reads: Reads): FileOpener {
  return (path, range) => {
    reads.starts.push(range.start);
    const stream = createReadStream(path, { ...range, ...(chunkBytes ? { highWaterMark: chunkBytes } : {}) });
    stream.on('data', (chunk) => (reads.bytes += chunk.length));
    return stream;
  };
}

async function read(path: string, format: FileFormat, bytes: Buffer, chunkBytes?: number, from?: FilePosition) {
  const reads: Reads = { starts: [], bytes: 0 };
  const rows: FileRecord[] = [];
  const head = from ? bytes.subarray(0, from.headerEnd ?? 0) : undefined;
  for await (const row of fileRecords(path, format, { bytes: bytes.length, from, head, open: opener(chunkBytes, reads) })) rows.push(row);
  return { rows, reads };
}

describe('fileRecords read from the place a row says the file goes on at', () => {
  describe.each(FILES)('%s', (name, format, bytes) => {
    const path = write(name, bytes, format);

    it.each([
      ['read whole', undefined],
      ['read in small chunks', bytes.length > 100_000 ? 4099 : 7],
    ])('gives the rows after that row, as a read from the start does (%s)', async (_, chunkBytes) => {
      const whole = await read(path, format, bytes, chunkBytes);
      const placed = whole.rows.filter((row) => 'next' in row && row.next);
      // Every row but one ending the file without a line break says where the file goes on.
      expect(placed.length).toBeGreaterThanOrEqual(whole.rows.length - 1);
      for (const row of placed) {
        const from = (row as { next: FilePosition }).next;
        const after = whole.rows.slice(whole.rows.indexOf(row) + 1);
        const resumed = await read(path, format, bytes, chunkBytes, from);
        expect({ from, rows: resumed.rows }).toEqual({ from, rows: after });
        // The file is opened at that place; only what follows it is read.
        expect(resumed.reads.starts).toEqual(from.byte < bytes.length ? [from.byte] : []);
        expect(resumed.reads.bytes).toBe(bytes.length - from.byte);
      }
    });
  });
});
