/**
 * A stop waits for the running jobs; past STILL_RUNNING_NOTICE_MS it says which, once, while it waits.
 * Found black-box: Ctrl+C during a charge whose provider call hung waited ~20 s with nothing said.
 */
import { Logger } from 'graphile-worker';
import { Pool } from 'pg';
import { createTestDatabase } from '../../test/harness/test-database';
import { waitUntil } from '../../test/harness/wait-until';
import { installJobQueue } from './install-job-queue';
import { jobLogFactory } from './job-log';
import { startJobWorker } from './job-worker';

it('says which jobs a stop is waiting for, and still lets them finish', async () => {
  const pool = new Pool({ connectionString: await createTestDatabase('running_jobs_notice'), max: 6 });
  const lines: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started = false;
  let finished = false;
  try {
    await installJobQueue(pool);
    const worker = await startJobWorker({
      pool,
      concurrency: 1,
      pollIntervalMs: 100,
      logger: new Logger(jobLogFactory('info', (_level, line) => lines.push(line))),
      taskList: {
        'hanging-call': async () => {
          started = true;
          await released;
          finished = true;
        },
      },
    });
    const { rows } = await pool.query<{ id: string }>(`SELECT id FROM graphile_worker.add_job('hanging-call', '{}'::json)`);
    await waitUntil(async () => started, Boolean, 10_000);

    const stopped = worker.stop();
    const notice = await waitUntil(async () => lines.find((line) => line.includes('stopping: waiting for')), Boolean, 10_000);
    expect(notice).toContain(`waiting for 1 running job to finish: hanging-call job ${rows[0].id}, attempt 1 of 25 (running `);
    expect(finished).toBe(false);

    release();
    await stopped;
    expect(finished).toBe(true);
    expect(lines.filter((line) => line.includes('stopping: waiting for'))).toHaveLength(1);
    // The job was acknowledged before the stop ended: nothing is left to run again.
    expect((await pool.query(`SELECT count(*)::int AS n FROM graphile_worker.jobs`)).rows[0].n).toBe(0);
  } finally {
    release();
    await pool.end();
  }
});
