/**
 * The `next` of a page of jobs: the (updatedAt, jobId) of the last job shown, the key both lists are
 * ordered by, so the next page starts right after it however many jobs match (keyset paging; no
 * offset to skip or repeat rows when jobs are added in front). Opaque to clients: base64url JSON.
 */
import type { JobKey } from '../../../projections/support-jobs/support-jobs.queries';

export function encodeJobCursor({ updatedAt, jobId }: JobKey): string {
  return Buffer.from(JSON.stringify([updatedAt.toISOString(), jobId])).toString('base64url');
}

/** The key a cursor names, or undefined when it is not one this service wrote. */
export function decodeJobCursor(cursor: string): JobKey | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
  const [at, jobId] = decoded as unknown[];
  if (typeof at !== 'string' || typeof jobId !== 'string' || !jobId) return undefined;
  const updatedAt = new Date(at);
  return Number.isNaN(updatedAt.getTime()) || updatedAt.toISOString() !== at ? undefined : { updatedAt, jobId };
}
