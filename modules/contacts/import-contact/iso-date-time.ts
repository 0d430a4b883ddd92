/**
 * RFC 3339 date-times (the ISO-8601 profile JSON APIs use), checked to the calendar: a record's
 * `updatedAt` and a run's `since` are compared and sent on to sources, so an impossible date such as
 * 2026-02-30 or an offset of +25:00 is refused where it arrives. (Date.parse alone takes 2026-02-30 as
 * March 2nd and 24:00:00 as the next midnight.) A leap second (:60) is refused too: no source sends one.
 * So is an instant outside years 0001–9999 in UTC (0000-06-01T00:00:00Z, 0001-01-01T00:00:00+01:00,
 * 9999-12-31T23:00:00-05:00): the read models keep `updatedAt` as a PostgreSQL timestamptz, which has no
 * year 0 and is written from a JS Date's text (a six-digit year beyond 9999); accepted, such a record
 * stopped the contacts and import_events projections for good at its event.
 */
const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

export function isIsoDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = RFC_3339.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  // Day 0 of the next month is this month's last; setUTCFullYear keeps years 0–99 as written
  // (Date.UTC would read them as 1900–1999).
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  const daysInMonth = lastDay.getUTCDate();
  const offsetOk = match[7] === undefined || (Number(match[7]) <= 23 && Number(match[8]) <= 59);
  const valid = month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59 && offsetOk;
  if (!valid) return false;
  const instant = Date.parse(value);
  return instant >= EARLIEST && instant <= LATEST;
}

// The instants a timestamptz written from a JS Date can hold (Date keeps milliseconds; a finer fraction is cut).
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Orders two checked date-times by the instant they name, at their full precision: offsets count
 * (11:00+01:00 is 10:00Z), and the fraction is compared digit by digit whatever its length, so
 * `.100001` is before `.1009` and `.1` equals `.100000000`. Date.parse alone keeps milliseconds only,
 * and two records a few microseconds apart would tie and fall to the checksum.
 * Negative: `a` is earlier; 0: the same instant, however spelled; positive: `a` is later.
 */
export function compareIsoDateTimes(a: string, b: string): number {
  const x = splitFraction(a);
  const y = splitFraction(b);
  if (x.second !== y.second) return Math.sign(x.second - y.second);
  const width = Math.max(x.fraction.length, y.fraction.length);
  const [fa, fb] = [x.fraction.padEnd(width, '0'), y.fraction.padEnd(width, '0')];
  return fa === fb ? 0 : fa > fb ? 1 : -1;
}

/** The whole second (epoch ms, from Date.parse without the fraction) and the fraction's digits, trailing zeros cut. */
function splitFraction(value: string): { second: number; fraction: string } {
  // The only '.' an RFC 3339 date-time may hold is the fraction's.
  const match = /\.(\d+)/.exec(value);
  if (!match) return { second: Date.parse(value), fraction: '' };
  const whole = value.slice(0, match.index) + value.slice(match.index + match[0].length);
  return { second: Date.parse(whole), fraction: match[1].replace(/0+$/, '') };
}
