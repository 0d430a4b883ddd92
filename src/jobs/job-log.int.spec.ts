import { Logger } from 'graphile-worker';
import { Pool } from 'pg';
import { createTestDatabase } from '../../test/harness/test-database';
import { waitUntil } from '../../test/harness/wait-until';
import { PostgresNotAnswering } from '../database/not-answering';
import { installJobQueue } from './install-job-queue';
import { jobLogFactory, type JobLogLevel } from './job-log';
import { startJobWorker, type JobWorker } from './job-worker';

/** A task's own condition that its retry resolves, marked as the kernel reads it (job-log.ts). */
class StillPending extends Error {
  readonly expectedRetry = true;
}

describe("A job worker's log of failed attempts", () => {
  let pool: Pool;
  let worker: JobWorker;
  const lines: Array<{ level: JobLogLevel; line: string }> = [];
  /** The lines about the first attempt of `task`'s job: graphile's `(task, …` or ours `task job …`; its retry may have come since. */
  const firstAttempt = (task: string) =>
    lines.filter(({ line }) => line.includes('attempt 1 of') && (line.includes(`(${task},`) || line.includes(`${task} job`)));

  beforeAll(async () => {
    pool = new Pool({ connectionString: await createTestDatabase('job_log'), max: 6 });
    await installJobQueue(pool);
    worker = await startJobWorker({
      pool,
      concurrency: 2,
      pollIntervalMs: 100,
      logger: new Logger(jobLogFactory('info', (level, line) => lines.push({ level, line }))),
      taskList: {
        'stalled-read': async () => {
          throw new PostgresNotAnswering('PostgreSQL did not answer a statement within 10000 ms: connection dropped');
        },
        'pending-outcome': async () => {
          throw new StillPending(
            'Outcome of the charge for order ord-1 is unknown (provider unreachable); it will be verified and retried',
          );
        },
        'last-try': async () => {
          throw new StillPending('still unknown on the last attempt');
        },
        broken: async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'amount')");
        },
      },
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await pool?.end();
  });

  it('says an expected, retried failure in one warning line (task, attempt, reason, next retry) and keeps the stack of the unexpected', async () => {
    const started = Date.now();
    for (const task of ['stalled-read', 'pending-outcome', 'broken'])
      await pool.query(`SELECT graphile_worker.add_job($1, '{}'::json)`, [task]);
    await pool.query(`SELECT graphile_worker.add_job('last-try', '{}'::json, max_attempts => 1)`);
    await waitUntil(
      async () => ['stalled-read', 'pending-outcome', 'broken', 'last-try'].map((task) => firstAttempt(task).length),
      (counts) => counts.every((count) => count > 0),
      10_000,
    );

    for (const task of ['stalled-read', 'pending-outcome']) {
      const [entry, ...more] = firstAttempt(task);
      expect(more).toEqual([]);
      expect(entry.level).toBe('warn');
      expect(entry.line).not.toContain('\n');
      expect(entry.line).toMatch(new RegExp(`^worker: ${task} job \\d+ attempt 1 of 25 failed, retried at (\\S+) \\(in 3 s\\): `));
      const retryAt = Date.parse(/retried at (\S+)/.exec(entry.line)![1]);
      // graphile's fail_job: exp(attempts) seconds from now, e¹ ≈ 2.7 s after the first.
      expect(retryAt).toBeGreaterThanOrEqual(started + 2_700);
      expect(retryAt).toBeLessThan(Date.now() + 2_800);
    }
    expect(firstAttempt('stalled-read')[0].line).toContain('PostgreSQL did not answer a statement within 10000 ms');
    expect(firstAttempt('pending-outcome')[0].line).toContain('(provider unreachable); it will be verified and retried');

    // Unexpected, or expected but not retried: graphile's own error line, stack included.
    for (const task of ['broken', 'last-try']) {
      const [entry, ...more] = firstAttempt(task);
      expect(more).toEqual([]);
      expect(entry.level).toBe('error');
      expect(entry.line).toMatch(new RegExp(`^worker: Failed task \\d+ \\(${task}, `));
      expect(entry.line).toMatch(/\n\s+at /);
    }
  });
});
