/**
 * Readiness asks only whether the job queue's tables answer. Counting the jobs (job-queue-depth.ts,
 * for /metrics) costs as much as the queue is long, on every probe — the wrong moment, under a
 * backlog, for a health check to get slower.
 */
import type { Pool } from 'pg';

export async function assertJobQueueAnswers(pool: Pick<Pool, 'query'>): Promise<void> {
  await pool.query(
    `SELECT (SELECT 1 FROM graphile_worker._private_jobs LIMIT 1) AS job, (SELECT 1 FROM graphile_worker._private_tasks LIMIT 1) AS task`,
  );
}
