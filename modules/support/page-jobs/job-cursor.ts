/**
 * The `next` of a page of jobs: the (updatedAt, jobId) of the last job shown, the key both lists are
 * ordered by, so the next page starts right after it however many jobs match (keyset paging; no
 * offset to skip or repeat rows when jobs are added in front). Opaque to clients: base64url JSON.
 */
import type { JobKey } from '../../../projections/support-jobs/support-jobs.queries';
import { canonicalInstant, decodeKeysetCursor, encodeKeysetCursor } from '../../../src/errors/keyset-cursor';

export function encodeJobCursor({ updatedAt, jobId }: JobKey): string {
  return encodeKeysetCursor([updatedAt.toISOString(), jobId]);
}

/** The key a cursor names, or undefined when it is not one this service wrote. */
export function decodeJobCursor(cursor: string): JobKey | undefined {
  const [at, jobId] = decodeKeysetCursor(cursor, 2) ?? [];
  const updatedAt = canonicalInstant(at);
  return updatedAt && typeof jobId === 'string' && jobId ? { updatedAt, jobId } : undefined;
}
