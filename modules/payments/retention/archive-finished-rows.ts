/**
 * Retention (DESIGN §7.6): finished job rows (jobs that exhausted their attempts) and webhook dedupe
 * rows older than the window move to archive tables — archived, never dropped — in one transaction.
 * A window shorter than the longest retry window is refused: a retry could still need those rows.
 *
 * A delivery that remembers a payment made outside Idem for an order not known yet (it carries a
 * payment_intent_id) is archived like any other: an order created for that id later, even years on,
 * must still go to review instead of being charged, so the worker's check reads the archive too
 * (WebhookDeliveries.outsidePaymentsFor; both tables index those rows by order id).
 */
import type { Pool } from 'pg';
import { AppError } from '../../../src/errors/app-error';
import { longestRetryWindowMs } from './retry-window';

export interface ArchiveResult {
  jobs: number;
  webhookDeliveries: number;
  cutoff: string;
}

export async function archiveFinishedRows(pool: Pool, options: { olderThanMs: number; now?: Date }): Promise<ArchiveResult> {
  const minimum = longestRetryWindowMs();
  if (options.olderThanMs < minimum) {
    throw new AppError(
      'validation',
      'RETENTION.WINDOW_TOO_SHORT',
      `Refusing to archive rows younger than the longest retry window (${Math.ceil(minimum / 3_600_000)} h): a retry could still need them`,
      {
        minimumMs: minimum,
      },
    );
  }
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.olderThanMs);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const jobs = await client.query(
      `WITH moved AS (
         DELETE FROM graphile_worker._private_jobs j
          USING graphile_worker._private_tasks t
          WHERE t.id = j.task_id AND j.attempts >= j.max_attempts AND j.locked_at IS NULL AND j.updated_at < $1
         RETURNING j.id, t.identifier, j.payload, j.attempts, j.max_attempts, j.last_error, j.key, j.created_at, j.updated_at)
       INSERT INTO payment_job_archive (job_id, task_identifier, payload, attempts, max_attempts, last_error, job_key, created_at, updated_at)
       SELECT id, identifier, payload, attempts, max_attempts, last_error, key, created_at, updated_at FROM moved`,
      [cutoff],
    );
    const deliveries = await client.query(
      `WITH moved AS (DELETE FROM payment_webhook_deliveries WHERE received_at < $1 RETURNING *)
       INSERT INTO payment_webhook_deliveries_archive SELECT * FROM moved`,
      [cutoff],
    );
    await client.query('COMMIT');
    return { jobs: jobs.rowCount ?? 0, webhookDeliveries: deliveries.rowCount ?? 0, cutoff: cutoff.toISOString() };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
