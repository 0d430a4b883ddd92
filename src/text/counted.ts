/**
 * A count with its noun, for the lines people read (CLI output, log lines): "0 rows", "1 row", "2 rows".
 * One helper, so no line says "1 events" or falls back on "event(s)". `plural` is for nouns that do not
 * take an s ("1 entry", "2 entries").
 */
export const counted = (count: number, singular: string, plural = `${singular}s`): string => `${count} ${count === 1 ? singular : plural}`;
