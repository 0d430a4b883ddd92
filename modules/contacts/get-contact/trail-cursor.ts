/**
 * The `next` of a page of a record's import trail: the (recordedAt, runId, seq) of the last row shown,
 * the key the trail is ordered by, so the next page starts right after it however many runs touch the
 * record meanwhile. Opaque to clients: base64url JSON, as the run list's cursor (sync-runs/run-cursor.ts).
 */
import { canonicalInstant, decodeKeysetCursor, encodeKeysetCursor } from '../../../src/errors/keyset-cursor';
import { RUN_ID } from '../sync-runs/run-cursor';

export interface TrailKey {
  recordedAt: string;
  runId: string;
  seq: number;
}

export function encodeTrailCursor({ recordedAt, runId, seq }: TrailKey): string {
  return encodeKeysetCursor([recordedAt, runId, String(seq)]);
}

/** The key a cursor names, or undefined when it is not one this service wrote. */
export function decodeTrailCursor(cursor: string): TrailKey | undefined {
  const [recordedAt, runId, seq] = decodeKeysetCursor(cursor, 3) ?? [];
  if (!canonicalInstant(recordedAt) || typeof runId !== 'string' || !RUN_ID.test(runId)) return undefined;
  if (typeof seq !== 'string' || !/^(0|[1-9]\d{0,8})$/.test(seq)) return undefined;
  return { recordedAt: recordedAt as string, runId, seq: Number(seq) };
}
