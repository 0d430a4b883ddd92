/**
 * RFC 3339 date-times (the ISO-8601 profile JSON APIs use), checked to the calendar: a record's
 * `updatedAt` and a run's `since` are compared and sent on to sources, so an impossible date such as
 * 2026-02-30 or an offset of +25:00 is refused where it arrives. (Date.parse alone takes 2026-02-30 as
 * March 2nd and 24:00:00 as the next midnight.) A leap second (:60) is refused too: no source sends one.
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
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59 && offsetOk;
}
