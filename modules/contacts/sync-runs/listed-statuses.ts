/**
 * The statuses GET /v1/sync/runs?status= and `idem sync list --status` filter by. The list holds pull
 * and file runs (push batches are requests, answered to their caller, and the read model's list indexes
 * leave them out). Only a pushed batch ever ends `failed` (a request left unfinished, ended by the
 * abandoned-push sweep); a pull or file run that cannot go on stops as `needs_review`. So `failed` could
 * only ever list nothing, which reads as "nothing failed": it is refused, saying why, instead.
 */
import { RUN_STATUSES, type RunStatus } from '../import-run.state';

export type ListedStatus = Exclude<RunStatus, 'failed'>;

export const LISTED_STATUSES = RUN_STATUSES.filter((status): status is ListedStatus => status !== 'failed');

export const FAILED_IS_NOT_LISTED =
  'status failed lists nothing: only a pushed batch (POST /v1/contacts/import) ends failed, and the list holds pull and ' +
  "file runs, which stop as needs_review when they cannot go on; a batch's own GET /v1/sync/runs/{runId} shows it";

/** Why a status is not one to list by, or undefined if it is. */
export function unlistedStatusReason(status: unknown): string | undefined {
  if (status === 'failed') return FAILED_IS_NOT_LISTED;
  if (!(LISTED_STATUSES as readonly unknown[]).includes(status)) return `status must be one of ${LISTED_STATUSES.join(', ')}`;
  return undefined;
}
