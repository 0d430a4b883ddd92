import { decodeRunCursor, encodeRunCursor } from './run-cursor';

const cursorOf = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

describe('the run list cursor', () => {
  it.each([
    ['a run with a start time', { startedAt: '2026-12-02T18:04:05.123Z', runId: 'file.crm.0123456789abcdef' }],
    ['a run without one (listed first)', { startedAt: null, runId: 'run-7' }],
  ])('names the sort key of %s, whatever the read model holds', (_, key) => {
    expect(decodeRunCursor(encodeRunCursor(key))).toEqual(key);
  });

  it.each([
    ['a bare run id (the cursor of before)', 'file.crm.0123456789abcdef'],
    ['not base64url JSON', 'a b'],
    ['cut short', encodeRunCursor({ startedAt: '2026-12-02T18:04:05.123Z', runId: 'r1' }).slice(0, -4)],
    ['an object, not the pair', cursorOf({ startedAt: '2026-12-02T18:04:05.123Z', runId: 'r1' })],
    ['a pair with more', cursorOf(['2026-12-02T18:04:05.123Z', 'r1', 'x'])],
    ['a run id no route takes', cursorOf(['2026-12-02T18:04:05.123Z', 'a b'])],
    ['an empty run id', cursorOf(['2026-12-02T18:04:05.123Z', ''])],
    ['a date that is no ISO time', cursorOf(['yesterday', 'r1'])],
    ['a date not written as the list writes it', cursorOf(['2026-12-02T18:04:05Z', 'r1'])],
    ['a number for the date', cursorOf([1764698645123, 'r1'])],
  ])('is refused when %s', (_, cursor) => {
    expect(decodeRunCursor(cursor)).toBeUndefined();
  });
});
