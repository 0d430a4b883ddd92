/**
 * What two job-slot ids sharing a liveness key do (release-dead-workers-jobs.ts says why the key stays
 * 32 bits): a real pair of ids with one hashtext, one slot dead with a job locked, the other alive.
 */
import type { Worker } from 'graphile-worker';
import { Pool } from 'pg';
import { createTestDatabase } from '../../test/harness/test-database';
import { waitUntil } from '../../test/harness/wait-until';
import { installJobQueue } from './install-job-queue';
import { openJobWorkerLiveness } from './job-worker-liveness';
import { findDeadWorkersJobs } from './release-dead-workers-jobs';

/** hashtext() of both is 1523274775 (found by grouping 400,000 ids by their hashtext in PostgreSQL). */
const DEAD = 'worker-9f3fedf17034316a32b96e87686c44d9';
const LIVE = 'worker-92ff4612172650fc2af12a8701ba251d';

describe('findDeadWorkersJobs with two slot ids whose hashtexts collide', () => {
  let pool: Pool;
  beforeAll(async () => {
    pool = new Pool({ connectionString: await createTestDatabase('dead_worker_collision'), max: 4 });
    await installJobQueue(pool);
  });
  afterAll(() => pool.end());

  it("reads the dead slot as alive while the live one's session lasts (a delay), and releases its jobs once it ends", async () => {
    const { rows } = await pool.query<{ same: boolean }>('SELECT hashtext($1) = hashtext($2) AS same', [DEAD, LIVE]);
    expect(rows[0].same).toBe(true);
    await pool.query(`SELECT graphile_worker.add_job('collision-probe', '{}'::json)`);
    await pool.query(`UPDATE graphile_worker._private_jobs SET locked_by = $1, locked_at = now()`, [DEAD]);

    const liveness = await openJobWorkerLiveness(pool.options);
    try {
      await liveness.announce({ workerId: LIVE } as Worker);
      expect(await findDeadWorkersJobs(pool)).toEqual([]);
    } finally {
      await liveness.close();
    }
    // The server ends the closed session (and drops its lock) a moment after the client left.
    const released = await waitUntil(
      () => findDeadWorkersJobs(pool),
      (dead) => dead.length > 0,
      10_000,
    );
    expect(released).toEqual([{ workerId: DEAD, jobs: 1 }]);
  });
});
