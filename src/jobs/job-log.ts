/**
 * graphile-worker's log lines for Idem's logger. graphile logs every failed attempt of a job at error
 * level with the error's whole stack. Most failures are expected and retried: the database or the
 * event store did not answer (a restart, a stall), or a task met a condition that its retry resolves
 * (a charge whose outcome is still unknown). Such an attempt is one warning line here — task, job,
 * attempt, reason, when the retry comes — and only what nobody expected keeps graphile's error line
 * and its stack, as does an expected failure on the job's last attempt: nothing retries it.
 */
import type { Job, LogFunctionFactory } from 'graphile-worker';
import { isStoreUnavailable } from '../event-store/store-unavailable';

/**
 * A task's error for a condition it expects, which the queue's retry resolves: a task throws an error
 * with `expectedRetry: true` (a property, so that features need not import a class of the kernel's).
 */
export interface ExpectedRetry {
  readonly expectedRetry: true;
}

/** Expected and retried: the stores did not answer, or the task says so ({@link ExpectedRetry}). */
export function isExpectedRetry(error: unknown): boolean {
  return (
    isStoreUnavailable(error) || (typeof error === 'object' && error !== null && (error as Partial<ExpectedRetry>).expectedRetry === true)
  );
}

export type JobLogLevel = 'error' | 'warn' | 'info' | 'debug';

/** graphile-worker's level names (`warning`…) as Idem's (`warn`…), and their order, most severe first. */
const LEVELS: Record<string, JobLogLevel> = { error: 'error', warning: 'warn', info: 'info', debug: 'debug' };
const SEVERITY: Record<JobLogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/**
 * Log lines at `threshold` or more severe go to `write`, prefixed with graphile's scope label (`worker`,
 * `job`…); a retried attempt that failed for an expected reason is one warning line (retriedAttemptLine).
 */
export function jobLogFactory(threshold: JobLogLevel, write: (level: JobLogLevel, line: string) => void): LogFunctionFactory {
  return (scope) => (graphileLevel, message, meta) => {
    const retried = retriedAttemptLine(meta);
    const level = retried ? 'warn' : (LEVELS[graphileLevel] ?? 'info');
    if (SEVERITY[level] > SEVERITY[threshold]) return;
    write(level, `${scope.label ?? 'jobs'}: ${retried ?? message}`);
  };
}

/**
 * For graphile's report of a failed attempt (`meta.failure`, with the job and the error) that will be
 * retried for an expected reason: the line that says so. graphile retries after exp(min(attempts, 10))
 * seconds from now (its fail_job), which the line gives.
 */
function retriedAttemptLine(meta: Record<string, unknown> | undefined, now = new Date()): string | undefined {
  if (meta?.failure !== true || !isExpectedRetry(meta.error)) return undefined;
  const job = meta.job as Pick<Job, 'id' | 'task_identifier' | 'attempts' | 'max_attempts' | 'run_at'> | undefined;
  if (!job || job.attempts >= job.max_attempts) return undefined;
  const delayMs = Math.exp(Math.min(job.attempts, 10)) * 1_000;
  const retryAt = new Date(Math.max(now.getTime(), new Date(job.run_at).getTime()) + delayMs);
  const { message } = meta.error as { message?: unknown };
  const reason = typeof message === 'string' && message ? message : String(meta.error);
  return (
    `${job.task_identifier} job ${job.id} attempt ${job.attempts} of ${job.max_attempts} failed, ` +
    `retried at ${retryAt.toISOString()} (in ${Math.round((retryAt.getTime() - now.getTime()) / 1000)} s): ${reason}`
  );
}
