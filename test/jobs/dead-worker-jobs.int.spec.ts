/**
 * Jobs of a dead job worker are taken over within seconds here (the sweep runs at start and every
 * SWEEP_MS), not after graphile-worker's 4-hour lock timeout; a live worker's job is never taken over,
 * however long it runs. Real worker processes (test/jobs/job-worker-process.ts), killed for real.
 */
import { join } from 'node:path';
import { Pool } from 'pg';
import { installJobQueue } from '../../src/jobs/install-job-queue';
import { readJobQueueDepth } from '../../src/metrics/job-queue-depth';
import { createTestDatabase } from '../harness/test-database';
import { ReportingChild, type Report } from '../harness/reporting-child';
import { waitUntil } from '../harness/wait-until';

jest.setTimeout(120_000);

let pool: Pool;
let url: string;
const children: ReportingChild[] = [];

function startWorker(env: Record<string, string>): ReportingChild {
  const child = new ReportingChild(join(__dirname, 'job-worker-process.ts'), { DATABASE_URL: url, ...env });
  children.push(child);
  return child;
}

const addHoldJob = async (key: string): Promise<string> =>
  (await pool.query<{ id: string }>(`SELECT id FROM graphile_worker.add_job('hold', '{}'::json, job_key => $1)`, [key])).rows[0].id;

const lockOf = async (jobId: string) =>
  (
    await pool.query<{ locked_by: string | null; attempts: number }>(
      `SELECT locked_by, attempts FROM graphile_worker._private_jobs WHERE id = $1`,
      [jobId],
    )
  ).rows[0];

/** The `hold` rows of /metrics' job queue depth, by state. */
const holdDepth = async () =>
  Object.fromEntries((await readJobQueueDepth(pool)).filter((row) => row.task === 'hold').map((row) => [row.state, row.jobs]));

const sweeps = (child: ReportingChild) => child.reports.filter((r) => r.event === 'log' && /^dead worker sweep:/.test(String(r.message)));
const byJob = (event: string, jobId: string) => (r: Report) => r.event === event && String(r.jobId) === jobId;

beforeAll(async () => {
  url = await createTestDatabase('dead_worker_jobs');
  pool = new Pool({ connectionString: url, max: 4 });
  await installJobQueue(pool);
});
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.kill()));
});
afterAll(async () => {
  await pool.end();
});

describe('A job locked by a job worker', () => {
  describe('whose process is SIGKILLed while it runs the job', () => {
    it('is released by the next worker and run to completion by it, and no longer counts as running', async () => {
      const jobId = await addHoldJob('dead-worker');
      const first = startWorker({ HOLD: '1' });
      await first.waitFor('the job started', byJob('started', jobId));
      const { locked_by: deadWorker } = await lockOf(jobId);
      expect(deadWorker).toMatch(/^worker-/);

      await first.kill('SIGKILL');
      // Dead, yet locked for graphile-worker's 4 hours: /metrics still counts it running.
      expect(await holdDepth()).toEqual({ running: 1 });

      const second = startWorker({ SWEEP_MS: '200' });
      const ran = await second.waitFor('the job run by the second worker', byJob('ran', jobId), 60_000);
      expect(ran.attempts).toBe(2);
      await waitUntil(holdDepth, (depth) => Object.keys(depth).length === 0, 30_000);
      const released = sweeps(second).filter((r) => String(r.message).includes(deadWorker!));
      expect(released.map((r) => r.message)).toEqual([`dead worker sweep: released 1 job locked by dead worker ${deadWorker}`]);
    });
  });

  describe('whose worker is alive', () => {
    it("is never released by another worker's sweeps, however long it runs, and runs once", async () => {
      const jobId = await addHoldJob('live-worker');
      const holder = startWorker({ HOLD: '1' });
      await holder.waitFor('the job started', byJob('started', jobId));
      const lock = await lockOf(jobId);

      const sweeper = startWorker({ SWEEP_MS: '100' });
      await sweeper.waitFor('ten sweeps of the other worker', () => sweeps(sweeper).length >= 10, 60_000);
      expect(await lockOf(jobId)).toEqual(lock);
      expect(await holdDepth()).toEqual({ running: 1 });

      holder.send('finish');
      await holder.waitFor('the job finished', byJob('finished', jobId));
      await waitUntil(holdDepth, (depth) => Object.keys(depth).length === 0, 30_000);
      expect(sweeps(sweeper).filter((r) => /released/.test(String(r.message)))).toEqual([]);
      expect(sweeper.reports.filter((r) => r.event === 'ran')).toEqual([]);
      expect(holder.reports.filter((r) => r.event === 'started')).toHaveLength(1);
    });
  });
});
