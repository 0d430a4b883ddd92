import { Readable } from 'node:stream';
import { ndjsonLines, type NdjsonLine } from './ndjson-lines';

/** The file handed over in chunks of `chunkBytes` (a line break or a multi-byte character may straddle two reads). */
async function lines(file: string | Buffer, maxLineBytes: number, chunkBytes = Infinity): Promise<NdjsonLine[]> {
  const bytes = Buffer.from(file);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += Math.min(chunkBytes, bytes.length)) chunks.push(bytes.subarray(at, at + chunkBytes));
  const read: NdjsonLine[] = [];
  for await (const line of ndjsonLines(Readable.from(chunks), maxLineBytes)) read.push(line);
  return read;
}

describe('ndjsonLines', () => {
  describe.each([
    ['read at once', Infinity],
    ['read a byte at a time', 1],
  ])('(%s)', (_, chunkBytes) => {
    it('ends lines at \\n, \\r\\n and \\r as readline does, keeps blank lines numbered and the last line without a break', async () => {
      expect(await lines('{"a":"é"}\r\n\n{"b":2}\r{"c":3}\n{"d":4}', 100, chunkBytes)).toEqual([
        { line: 1, text: '{"a":"é"}' },
        { line: 2, text: '' },
        { line: 3, text: '{"b":2}' },
        { line: 4, text: '{"c":3}' },
        { line: 5, text: '{"d":4}' },
      ]);
    });

    it('hands a line longer than the bound over as too long, without its text, and reads on', async () => {
      expect(await lines(`{"a":1}\n${'x'.repeat(11)}\n${'y'.repeat(10)}\n${'z'.repeat(50)}`, 10, chunkBytes)).toEqual([
        { line: 1, text: '{"a":1}' },
        { line: 2, tooLong: true },
        { line: 3, text: 'y'.repeat(10) },
        { line: 4, tooLong: true },
      ]);
    });

    it('hands a line that is not valid UTF-8 (0xFF, 0xFE, a cut 0xC3) over as such, without its text, and reads on', async () => {
      const bytes = Buffer.concat([
        Buffer.from('{"n":"a'),
        Buffer.from([0xff]),
        Buffer.from('b"}\n{"n":"a'),
        Buffer.from([0xfe]),
        Buffer.from('b"}\n{"n":"é"}\n{"n":"a'),
        Buffer.from([0xc3]),
        Buffer.from('"}\n{"n":"\uFFFD"}'),
      ]);
      expect(await lines(bytes, 100, chunkBytes)).toEqual([
        { line: 1, notUtf8: true },
        { line: 2, notUtf8: true },
        { line: 3, text: '{"n":"é"}' },
        { line: 4, notUtf8: true },
        { line: 5, text: '{"n":"\uFFFD"}' },
      ]);
    });
  });
});
