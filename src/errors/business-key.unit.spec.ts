import { BUSINESS_KEY, idPattern } from './business-key';

describe('idPattern', () => {
  it('accepts 1 to maxLength of letters, digits and _ . : -', () => {
    const runId = idPattern(80);
    expect(runId.test('pull-2026.12.01:crm_1')).toBe(true);
    expect(runId.test('r'.repeat(80))).toBe(true);
  });

  it('refuses the empty id, one character too many, and anything else (slashes, spaces, non-ASCII)', () => {
    const streamName = idPattern(200);
    expect(streamName.test('')).toBe(false);
    expect(streamName.test('s'.repeat(201))).toBe(false);
    for (const id of ['order/1', 'order 1', 'ordér-1', 'order-1\n']) expect(streamName.test(id)).toBe(false);
  });

  it('gives business keys 64 characters, and JSON schemas the same pattern as text', () => {
    expect(BUSINESS_KEY.test('k'.repeat(64))).toBe(true);
    expect(BUSINESS_KEY.test('k'.repeat(65))).toBe(false);
    expect(BUSINESS_KEY.source).toBe('^[A-Za-z0-9_.:-]{1,64}$');
  });
});
