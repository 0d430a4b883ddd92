/**
 * The source's updatedAt as the `contacts` and `import_events` read models can keep it: a timestamptz
 * written from a JS Date's ISO text, which holds the years 0001–9999 (PostgreSQL has no year 0000 and
 * cannot read the six-digit years JS writes beyond 9999).
 *
 * Since 91462c9 the import refuses such a time at the door, but events appended before that are
 * immutable, and the projections stalled on them for good ('date/time field value out of range',
 * retried with backoff), so every contact and audit row after one was missing. Such a time, and text
 * that is no instant at all, is kept as null here: the row is stored with everything else it says, the
 * event keeps the time as the source spelled it (GET …/events shows it), and the freshness rule compares
 * that text, never this column, so which version wins does not change. Skipping the row instead would
 * hide a contact that exists and break "one contact per source id".
 */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

export function storableInstant(text: string | undefined): Date | null {
  if (!text) return null;
  const time = Date.parse(text);
  return time >= EARLIEST && time <= LATEST ? new Date(time) : null;
}
