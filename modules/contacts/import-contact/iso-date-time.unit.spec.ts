import { compareIsoDateTimes, isIsoDateTime } from './iso-date-time';

describe('isIsoDateTime', () => {
  it.each([
    '2026-12-01T10:00:00Z',
    '2024-02-29T23:59:59.123456789+01:00',
    '2026-01-31T00:00:00-23:59',
    '1970-01-01T00:00:00Z',
    '0004-02-29T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '0001-01-01T00:59:59-01:00',
    '9999-12-31T23:59:59.999999999Z',
    '9999-12-31T23:59:59+00:01',
  ])('takes %s', (value) => expect(isIsoDateTime(value)).toBe(true));

  it.each([
    '2026-13-45T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '0100-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T00:60:00Z',
    '2026-01-01T00:00:60Z',
    '2026-01-01T00:00:00+25:00',
    '2026-01-01T00:00:00+01:60',
    '2026-01-01 00:00:00Z',
    '2026-01-01T00:00:00',
    'yesterday',
  ])('refuses %s', (value) => expect(isIsoDateTime(value)).toBe(false));

  // The read models keep it as a PostgreSQL timestamptz: no year 0, and nothing a JS Date writes past 9999.
  it.each([
    '0000-02-29T00:00:00Z',
    '0000-12-31T23:59:59.999Z',
    '0001-01-01T00:00:00+00:01',
    '9999-12-31T23:59:59-00:01',
    '9999-12-31T23:00:00-05:00',
  ])('refuses %s, outside years 0001–9999 in UTC', (value) => expect(isIsoDateTime(value)).toBe(false));

  it('refuses what is not a string', () => {
    expect(isIsoDateTime(1764583200000)).toBe(false);
    expect(isIsoDateTime(undefined)).toBe(false);
  });
});

describe('compareIsoDateTimes', () => {
  it.each([
    ['2026-12-01T10:00:00.100001Z', '2026-12-01T10:00:00.100900Z'],
    ['2026-12-01T10:00:00.1Z', '2026-12-01T10:00:00.100000001Z'],
    ['2026-12-01T10:00:00.999999999Z', '2026-12-01T10:00:01Z'],
    ['2026-12-01T10:59:59.9+01:00', '2026-12-01T10:00:00Z'],
    ['2026-11-30T23:59:59.999999-01:00', '2026-12-01T01:00:00+00:00'],
    ['0000-02-29T00:00:00Z', '1970-01-01T00:00:00Z'],
  ])('puts %s before %s', (earlier, later) => {
    expect(compareIsoDateTimes(earlier, later)).toBe(-1);
    expect(compareIsoDateTimes(later, earlier)).toBe(1);
  });

  it.each([
    ['2026-12-01T10:00:00Z', '2026-12-01T10:00:00.000000000Z'],
    ['2026-12-01T10:00:00.1Z', '2026-12-01T10:00:00.100Z'],
    ['2026-12-01T10:00:00.100900Z', '2026-12-01T11:00:00.1009+01:00'],
    ['2026-12-01T10:00:00Z', '2026-12-01T04:30:00-05:30'],
  ])('takes %s and %s as the same instant', (a, b) => {
    expect(compareIsoDateTimes(a, b)).toBe(0);
    expect(compareIsoDateTimes(b, a)).toBe(0);
  });
});
