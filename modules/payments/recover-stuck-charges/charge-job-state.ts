/**
 * Why an order recovery finds still pending had no attempt, told from its charge job's row in the
 * queue — not guessed. With no worker running (an api with IDEM_WORKER_IN_API=false, or none at all)
 * the reactor that queues the job never ran: there is no row, and the operator needs to hear "start a
 * worker", not that a job gave up.
 */
import type { Pool } from 'pg';
import { counted } from '../../../src/text/counted';
import { chargeOrderJobKey } from '../charge-order/charge-order.payload';

const START_ONE = 'is a worker running? start one (npm run worker)';

interface JobRow {
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  last_error: string | null;
}

/** Pure: what the row (or its absence) says, in the words of the recovery line. */
export function describeChargeJob(job: JobRow | undefined): string {
  if (!job) return `no worker has queued or run its charge job; ${START_ONE}`;
  if (job.locked_by !== null) return `worker ${job.locked_by} holds its charge job and had started no attempt`;
  if (job.attempts === 0) return `its charge job is queued and no worker has taken it; ${START_ONE}`;
  const gaveUp = job.attempts >= job.max_attempts ? ' and gave up' : '';
  const lastError = job.last_error ? ` (last error: ${job.last_error.split('\n')[0]})` : '';
  return `its charge job ran ${counted(job.attempts, 'time')} without an attempt${gaveUp}${lastError}`;
}

/** Reads the order's charge job (graphile-worker's table; none when the queue is not installed). */
export async function chargeJobState(pool: Pick<Pool, 'query'>, orderId: string): Promise<string> {
  try {
    const { rows } = await pool.query<JobRow>(
      `SELECT attempts, max_attempts, locked_by, last_error FROM graphile_worker._private_jobs WHERE key = $1`,
      [chargeOrderJobKey(orderId)],
    );
    return describeChargeJob(rows[0]);
  } catch (error) {
    // 3F000/42P01: no job queue schema here: nothing ever queued a job.
    const code = (error as { code?: string }).code;
    if (code === '3F000' || code === '42P01') return describeChargeJob(undefined);
    throw error;
  }
}
