/**
 * The `next` of a page of jobs: the (updatedAt, jobId) of the last job shown, the key both lists are
 * ordered by, so the next page starts right after it however many jobs match (keyset paging; no
 * offset to skip or repeat rows when jobs are added in front). Opaque to clients: base64url JSON.
 */
import type { JobKey } from '../../../projections/support-jobs/support-jobs.queries';
import { canonicalInstant, decodeKeysetCursor, encodeKeysetCursor } from '../../../src/errors/keyset-cursor';
import { unstorableText } from '../../../src/errors/storable-text';

export function encodeJobCursor({ updatedAt, jobId }: JobKey): string {
  return encodeKeysetCursor([updatedAt.toISOString(), jobId]);
}

/**
 * The key a cursor names, or undefined when it is not one this service wrote. A job id PostgreSQL could
 * not hold (a NUL, a lone surrogate) was never written by it: compared in the query, it failed there, a 500.
 */
export function decodeJobCursor(cursor: string): JobKey | undefined {
  const [at, jobId] = decodeKeysetCursor(cursor, 2) ?? [];
  const updatedAt = canonicalInstant(at);
  return updatedAt && typeof jobId === 'string' && jobId && unstorableText(jobId) === undefined ? { updatedAt, jobId } : undefined;
}
