/**
 * What a stopping job worker is waiting for. A stop lets every running job finish (its outcome is
 * appended before the job is acknowledged, DESIGN.md §7.2), and a charge whose provider call hangs can
 * take its timeout and a retry: ~20 s of Ctrl+C with nothing said. Past STILL_RUNNING_NOTICE_MS this
 * says, once, which jobs the stop waits for and how long each has run.
 */
import type { Job, Logger, Worker } from 'graphile-worker';
import { counted } from '../text/counted';

export const STILL_RUNNING_NOTICE_MS = 2_000;

/** Resolves as `stopping` does; logs the jobs still running if it takes longer than `afterMs`. */
export async function noticeRunningJobs(
  stopping: Promise<void>,
  workers: ReadonlySet<Worker>,
  logger: Logger,
  afterMs = STILL_RUNNING_NOTICE_MS,
): Promise<void> {
  const timer = setTimeout(() => {
    const running = [...workers].flatMap((worker) => worker.getActiveJob() ?? []);
    if (running.length)
      logger.info(`stopping: waiting for ${counted(running.length, 'running job')} to finish: ${running.map(describe).join('; ')}`);
  }, afterMs);
  try {
    await stopping;
  } finally {
    clearTimeout(timer);
  }
}

function describe(job: Job): string {
  const since = job.locked_at ? ` (running ${((Date.now() - new Date(job.locked_at).getTime()) / 1000).toFixed(1)} s)` : '';
  return `${job.task_identifier} job ${job.id}, attempt ${job.attempts} of ${job.max_attempts}${since}`;
}
