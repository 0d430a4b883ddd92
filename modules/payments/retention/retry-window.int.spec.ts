/**
 * Pins the retry window to what the installed graphile-worker really does: a charge job, enqueued
 * the way the charge reactor enqueues it, is failed run after run by graphile-worker's own runner,
 * and the waits it schedules are measured from the job row.
 */
import { Logger, runOnce } from 'graphile-worker';
import { Pool } from 'pg';
import { enqueueInTransaction } from '../../../src/jobs/enqueue-in-transaction';
import { installJobQueue } from '../../../src/jobs/install-job-queue';
import { createTestDatabase } from '../../../test/harness/test-database';
import { migratePayments } from '../payments.migrations';
import { archiveFinishedRows } from './archive-finished-rows';
import { DEFAULT_MAX_JOB_ATTEMPTS, longestRetryWindowMs } from './retry-window';

const HOUR = 3_600_000;
let pool: Pool;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('retry_window'), max: 4 });
  await installJobQueue(pool);
  await migratePayments(pool);
});
afterAll(() => pool.end());

interface Measured {
  runs: number;
  /** Sum of the scheduled waits, bracketed by the clock read before and after each failing run. */
  atLeastMs: number;
  atMostMs: number;
}

/** Lets graphile-worker fail a job until it gives up, pulling each retry forward to now. */
async function failUntilExhausted(task: string): Promise<Measured> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // No maxAttempts, like the charge reactor's jobs (charge-order/charge-order.reactor.ts).
    await enqueueInTransaction(client, task, { orderId: 'o-1' }, { jobKey: `${task}:o-1` });
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  const job = () =>
    pool
      .query<{ attempts: number; max_attempts: number; run_at: Date }>(
        `SELECT attempts, max_attempts, run_at FROM graphile_worker._private_jobs WHERE key = $1`,
        [`${task}:o-1`],
      )
      .then((r) => r.rows[0]);
  const measured: Measured = { runs: 0, atLeastMs: 0, atMostMs: 0 };
  const taskList = { [task]: async () => Promise.reject(new Error('provider still unreachable')) };
  for (;;) {
    const before = Date.now();
    await runOnce({ pgPool: pool, taskList, logger: quietLogger });
    const after = Date.now();
    const row = await job();
    if (row.attempts === measured.runs) break; // not taken: graphile-worker gave up on it
    measured.runs = row.attempts;
    if (row.attempts < row.max_attempts) {
      // A wait only counts when a run follows it.
      measured.atLeastMs += row.run_at.getTime() - after;
      measured.atMostMs += row.run_at.getTime() - before;
    }
    await pool.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [`${task}:o-1`]);
  }
  return measured;
}

const quietLogger = new Logger(() => () => undefined);

describe('longestRetryWindowMs', () => {
  it('equals the waits graphile-worker schedules for a charge job until it gives up', async () => {
    const measured = await failUntilExhausted('charge-order');
    expect(measured.runs).toBe(DEFAULT_MAX_JOB_ATTEMPTS);
    // PostgreSQL keeps timestamps in microseconds: allow 1 ms of rounding per wait.
    expect(longestRetryWindowMs()).toBeGreaterThanOrEqual(measured.atLeastMs - measured.runs);
    expect(longestRetryWindowMs()).toBeLessThanOrEqual(measured.atMostMs + measured.runs);
    // About four days: far longer than the recovery sweep's 24 h window.
    expect(longestRetryWindowMs() / HOUR).toBeCloseTo(95.33, 1);
  });
});

describe('archiveFinishedRows at the retry window', () => {
  const deliveryAged = async (id: string, ageMs: number) =>
    pool.query(
      `INSERT INTO payment_webhook_deliveries (provider_event_id, event_type, outcome, received_at) VALUES ($1, 't', 'o', now() - $2 * interval '1 millisecond')`,
      [id, ageMs],
    );

  describe('when the window is one millisecond shorter than the longest retry window', () => {
    it('refuses and moves nothing', async () => {
      await deliveryAged('evt_inside', longestRetryWindowMs() + HOUR);
      await expect(archiveFinishedRows(pool, { olderThanMs: longestRetryWindowMs() - 1 })).rejects.toMatchObject({
        code: 'RETENTION.WINDOW_TOO_SHORT',
      });
      expect((await pool.query(`SELECT 1 FROM payment_webhook_deliveries WHERE provider_event_id = 'evt_inside'`)).rowCount).toBe(1);
    });
  });

  describe('when the window is exactly the longest retry window', () => {
    it('archives what is older and keeps what a retry may still need', async () => {
      await deliveryAged('evt_past_window', longestRetryWindowMs() + HOUR);
      await deliveryAged('evt_within_window', longestRetryWindowMs() - HOUR);
      await archiveFinishedRows(pool, { olderThanMs: longestRetryWindowMs() });
      const archived = await pool.query(`SELECT provider_event_id FROM payment_webhook_deliveries_archive ORDER BY 1`);
      expect(archived.rows.map((r) => r.provider_event_id)).toEqual(expect.arrayContaining(['evt_past_window']));
      expect(archived.rows.map((r) => r.provider_event_id)).not.toContain('evt_within_window');
    });
  });
});
