/**
 * How many graphile-worker jobs wait, by task and state, read from the queue's tables: the queue
 * lives in the shared database, so an api process without a worker sees the same depth as the worker.
 * Finished jobs are deleted by graphile-worker, so every row is work still to do or given up on.
 */
import type { Pool } from 'pg';

export type JobState = 'ready' | 'scheduled' | 'running' | 'failed';

export interface JobQueueDepth {
  task: string;
  state: JobState;
  jobs: number;
}

export async function readJobQueueDepth(pool: Pick<Pool, 'query'>): Promise<JobQueueDepth[]> {
  const { rows } = await pool.query<JobQueueDepth>(
    `SELECT t.identifier AS task,
            CASE WHEN j.locked_at IS NOT NULL THEN 'running'
                 WHEN j.attempts >= j.max_attempts THEN 'failed'
                 WHEN j.run_at > now() THEN 'scheduled'
                 ELSE 'ready' END AS state,
            count(*)::int AS jobs
       FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      GROUP BY 1, 2
      ORDER BY 1, 2`,
  );
  return rows;
}
