import { ExportChecker } from './export-checker';
import { EXPORT_FORMAT } from './export-lines';

const HEADER = JSON.stringify({ kind: 'header', format: EXPORT_FORMAT, exportedAt: '2026-12-02T00:00:00.000Z', events: 1 });
const EVENT = {
  kind: 'event',
  eventNumber: 1,
  position: '1/1',
  stream: 'order-1',
  revision: 0,
  id: '5bf2f266-f7d2-5b7b-95fb-11455de003fd',
  type: 'ChargeRequested',
  data: {},
  metadata: {},
  created: '2026-12-02T00:00:00.000Z',
  eventHash: '0'.repeat(64),
  chainHash: '0'.repeat(64),
};
const { id: _id, ...withoutId } = EVENT;

describe('ExportChecker', () => {
  describe('when an edited file holds a line that is not of its kind’s shape', () => {
    it.each([
      ['an event line without its id', withoutId, 'is not a well-formed event line (id missing or malformed)'],
      ['an event line with a numeric id', { ...EVENT, id: 5 }, 'is not a well-formed event line (id missing or malformed)'],
      [
        'an event line with a text revision and no data',
        { ...EVENT, revision: '0', data: null },
        'is not a well-formed event line (revision, data missing or malformed)',
      ],
      [
        'an event line of nothing but its number',
        { kind: 'event', eventNumber: 1 },
        'is not a well-formed event line (position, stream, revision, id, type, data',
      ],
      [
        'a seal line without its count',
        { kind: 'seal', position: '1/1', digest: 'x' },
        'is not a well-formed seal line (eventsSealed missing or malformed)',
      ],
      ['a null', null, 'is not an object'],
      ['an array', [], 'is not an object'],
    ])('reports %s as rewritten at that line, instead of failing to check the rest', (_, line, detail) => {
      const checker = new ExportChecker();
      expect(checker.line(HEADER)).toBe(true);
      expect(checker.line(JSON.stringify(line))).toBe(false);
      expect(checker.report()).toMatchObject({
        ok: false,
        checked: 0,
        firstBreak: { kind: 'rewritten', stream: null, detail: expect.stringContaining(`line 2 ${detail}`) as unknown },
      });
    });
  });
});
