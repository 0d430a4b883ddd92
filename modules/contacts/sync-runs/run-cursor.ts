/**
 * The `next` of a page of GET /v1/sync/runs: the (startedAt, runId) of the last run shown, the key the
 * list is ordered by. The next page starts right after that key whether or not its run is still in the
 * read model (a rebuild's switch of sync_runs may drop it between two pages): a cursor naming the run
 * by id alone made the next page empty, and the listing ended early without saying so. Opaque to
 * clients: base64url JSON, as the support job list's cursor (modules/support/page-jobs/job-cursor.ts).
 */
import type { RunKey } from '../../../projections/sync-runs/sync-runs.queries';
import { idPattern } from '../../../src/errors/business-key';
import { canonicalInstant, decodeKeysetCursor, encodeKeysetCursor } from '../../../src/errors/keyset-cursor';

/** Run ids as the routes take them. */
export const RUN_ID = idPattern(80);

export function encodeRunCursor({ startedAt, runId }: RunKey): string {
  return encodeKeysetCursor([startedAt, runId]);
}

/** The key a cursor names, or undefined when it is not one this service wrote (a run id, made up, cut). */
export function decodeRunCursor(cursor: string): RunKey | undefined {
  const parts = decodeKeysetCursor(cursor, 2);
  if (!parts) return undefined;
  const [startedAt, runId] = parts;
  if (typeof runId !== 'string' || !RUN_ID.test(runId)) return undefined;
  // A run's start time as the list shows it (ISO, milliseconds), or null for a run without one (listed first).
  if (startedAt === null) return { startedAt, runId };
  return canonicalInstant(startedAt) ? { startedAt: startedAt as string, runId } : undefined;
}
