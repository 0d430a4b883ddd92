/**
 * The `next` of a keyset-paged list: the sort key of the last row shown, so the next page starts right
 * after it whatever was added or removed meanwhile. Opaque to clients: base64url JSON of the key's
 * parts. Each list checks the parts of its own key (modules/support/page-jobs/job-cursor.ts,
 * modules/contacts/sync-runs/run-cursor.ts); a cursor this service did not write is refused there.
 */

export function encodeKeysetCursor(parts: ReadonlyArray<string | null>): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** The cursor's parts when it is base64url JSON of an array of `length` values, else undefined. */
export function decodeKeysetCursor(cursor: string, length: number): unknown[] | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  return Array.isArray(decoded) && decoded.length === length ? (decoded as unknown[]) : undefined;
}

/** The instant `value` names when it is one exactly as `toISOString` writes it (ISO, milliseconds, Z). */
export function canonicalInstant(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) || date.toISOString() !== value ? undefined : date;
}
