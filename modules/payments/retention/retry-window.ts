/**
 * How long a charge job can keep retrying, from its first failure to its last run: nothing a retry
 * might still need — its job row, the webhook dedupe rows — may be archived before this has passed.
 *
 * The schedule is graphile-worker's (0.16.6, the version in package-lock.json), not ours:
 * - a job taken to run has its `attempts` raised by one (src/sql/getJob.ts: `attempts = jobs.attempts + 1`);
 * - a failed run is rescheduled `exp(least(attempts, 10))` seconds later
 *   (src/sql/failJob.ts: `run_at = greatest(now(), run_at) + (exp(least(attempts, 10)) * interval '1 second')`);
 * - a job runs while `attempts < max_attempts` (sql/000011.sql, the `is_available` column), and the
 *   charge job is enqueued without max_attempts, so it gets the default 25
 *   (sql/000018.sql, add_jobs: `coalesce(spec.max_attempts, 25)`).
 * So 25 runs with a wait after each of the first 24 failures: e¹ + … + e¹⁰ + 14·e¹⁰ s ≈ 95.3 h.
 * retry-window.int.spec.ts measures that schedule on the installed library.
 */
export const DEFAULT_MAX_JOB_ATTEMPTS = 25;

/** graphile-worker's wait after the failed run that raised `attempts` to this value. */
export const retryDelayMs = (attempts: number) => Math.exp(Math.min(attempts, 10)) * 1000;

export function longestRetryWindowMs(maxAttempts = DEFAULT_MAX_JOB_ATTEMPTS): number {
  let ms = 0;
  // The run that makes attempts = maxAttempts is the last: no wait after it counts.
  for (let attempts = 1; attempts < maxAttempts; attempts++) ms += retryDelayMs(attempts);
  return Math.ceil(ms);
}
