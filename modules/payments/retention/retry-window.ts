/**
 * How long a charge job can keep retrying: graphile-worker waits exp(min(attempt, 10)) seconds after
 * each failed attempt, for up to `maxAttempts` (25) attempts. Nothing a retry might still need —
 * its job row, the webhook dedupe rows — may be archived before this has passed.
 */
export const DEFAULT_MAX_JOB_ATTEMPTS = 25;

export function longestRetryWindowMs(maxAttempts = DEFAULT_MAX_JOB_ATTEMPTS): number {
  let seconds = 0;
  for (let attempt = 1; attempt < maxAttempts; attempt++) seconds += Math.exp(Math.min(attempt, 10));
  return Math.ceil(seconds * 1000);
}
