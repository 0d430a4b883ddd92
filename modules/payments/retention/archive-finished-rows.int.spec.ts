import { Pool } from 'pg';
import { installJobQueue } from '../../../src/jobs/install-job-queue';
import { createTestDatabase } from '../../../test/harness/test-database';
import { migratePayments } from '../payments.migrations';
import { archiveFinishedRows } from './archive-finished-rows';
import { longestRetryWindowMs } from './retry-window';

const DAY = 86_400_000;
let pool: Pool;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('retention') });
  await installJobQueue(pool);
  await migratePayments(pool);
});
afterAll(() => pool.end());

describe('archiveFinishedRows', () => {
  it('moves exhausted jobs and webhook dedupe rows older than the window to the archive, and nothing else', async () => {
    const addJob = (key: string) =>
      pool.query(`SELECT id FROM graphile_worker.add_job('charge-order', '{"orderId":"x"}'::json, job_key => $1, max_attempts => 1)`, [
        key,
      ]);
    await addJob('old-failed');
    await addJob('old-pending');
    await addJob('new-failed');
    await pool.query(
      `UPDATE graphile_worker._private_jobs SET attempts = 1, last_error = 'gave up', updated_at = now() - interval '40 days' WHERE key = 'old-failed'`,
    );
    await pool.query(`UPDATE graphile_worker._private_jobs SET updated_at = now() - interval '40 days' WHERE key = 'old-pending'`);
    await pool.query(
      `UPDATE graphile_worker._private_jobs SET attempts = 1, updated_at = now() - interval '1 day' WHERE key = 'new-failed'`,
    );
    await pool.query(
      `INSERT INTO payment_webhook_deliveries (provider_event_id, event_type, outcome, received_at) VALUES ('evt_old', 't', 'o', now() - interval '31 days'), ('evt_new', 't', 'o', now())`,
    );

    const result = await archiveFinishedRows(pool, { olderThanMs: 30 * DAY });
    expect(result).toMatchObject({ jobs: 1, webhookDeliveries: 1 });
    const left = await pool.query(`SELECT key FROM graphile_worker._private_jobs ORDER BY key`);
    expect(left.rows.map((r) => r.key)).toEqual(['new-failed', 'old-pending']);
    const archived = await pool.query(`SELECT job_key, task_identifier, last_error FROM payment_job_archive`);
    expect(archived.rows).toEqual([{ job_key: 'old-failed', task_identifier: 'charge-order', last_error: 'gave up' }]);
    expect((await pool.query(`SELECT provider_event_id FROM payment_webhook_deliveries`)).rows).toEqual([{ provider_event_id: 'evt_new' }]);
    expect((await pool.query(`SELECT provider_event_id FROM payment_webhook_deliveries_archive`)).rows).toEqual([
      { provider_event_id: 'evt_old' },
    ]);
  });

  it('refuses a window shorter than the longest retry window and moves nothing', async () => {
    expect(longestRetryWindowMs()).toBeGreaterThan(3 * DAY);
    await pool.query(
      `INSERT INTO payment_webhook_deliveries (provider_event_id, event_type, outcome, received_at) VALUES ('evt_2d', 't', 'o', now() - interval '2 days')`,
    );
    await expect(archiveFinishedRows(pool, { olderThanMs: DAY })).rejects.toMatchObject({ code: 'RETENTION.WINDOW_TOO_SHORT' });
    expect((await pool.query(`SELECT 1 FROM payment_webhook_deliveries WHERE provider_event_id = 'evt_2d'`)).rowCount).toBe(1);
  });
});
