/**
 * Gives the jobs of dead job slots back to the queue. graphile-worker only takes a locked job back
 * after 4 hours, so the charge, pull-run and alert jobs of a SIGKILLed worker would wait that long.
 * A slot is dead exactly when nobody holds its liveness lock (job-worker-liveness.ts): its process
 * is gone. A live slot's job is never released, however long it runs: running it twice at once is
 * what Idem exists to prevent.
 *
 * The liveness key keeps its 32-bit `hashtext(slot id)`, unlike the pull-run lock (64 bits of sha256,
 * modules/contacts/pull-run/run-lock.ts), because a collision here costs little and a new key would
 * risk much. Only two slot ids with one hashtext share a key (no other lock of Idem's uses the
 * namespace, and the query asks for objsubid 2, two int4 keys), e.g. `worker-9f3fedf17034316a32b96e87686c44d9`
 * and `worker-92ff4612172650fc2af12a8701ba251d`; the locks are shared, so a dead slot whose id collides
 * with a live one's reads as alive: its jobs wait for that slot's process to end, at worst for
 * graphile-worker's own 4-hour takeover (resetLockedAt), while the recovery schedule
 * (recover-stuck-charges: pending, processing, unknown) settles a charge stuck meanwhile. A live slot
 * never reads as dead. The odds are (live slots) / 2^32 per dead slot; a run lock's collision refused a
 * run outright instead. And during a rolling upgrade a sweeper of the version before would find a
 * new-key slot's lock missing and release its running job to another worker: the one failure this
 * sweep must never cause.
 */
import type { Logger, WorkerUtils } from 'graphile-worker';
import type { Pool } from 'pg';
import { counted } from '../text/counted';
import { LIVENESS_NAMESPACE } from './job-worker-liveness';

export interface DeadWorkerJobs {
  workerId: string;
  jobs: number;
}

/**
 * The snapshot of the jobs is taken before pg_locks is read, and a slot announces itself before it
 * locks a job, so a job this finds was locked by a slot whose lock was gone when the query ran.
 */
export async function findDeadWorkersJobs(pool: Pick<Pool, 'query'>): Promise<DeadWorkerJobs[]> {
  const { rows } = await pool.query<DeadWorkerJobs>(
    `SELECT j.locked_by AS "workerId", count(*)::int AS jobs
       FROM graphile_worker._private_jobs j
      WHERE j.locked_by IS NOT NULL
        AND NOT EXISTS (
              SELECT 1 FROM pg_locks l
               WHERE l.locktype = 'advisory'
                 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                 AND l.classid = (${LIVENESS_NAMESPACE})::oid
                 AND l.objid = hashtext(j.locked_by)::oid
                 AND l.objsubid = 2
                 AND l.granted)
      GROUP BY j.locked_by
      ORDER BY j.locked_by`,
  );
  return rows;
}

/** Releases with graphile-worker's own force_unlock_workers; the jobs then run again at once. */
export async function releaseDeadWorkersJobs(
  pool: Pick<Pool, 'query'>,
  utils: Pick<WorkerUtils, 'forceUnlockWorkers'>,
  logger: Logger,
): Promise<DeadWorkerJobs[]> {
  const dead = await findDeadWorkersJobs(pool);
  if (!dead.length) {
    logger.debug('dead worker sweep: no jobs locked by a dead worker');
    return dead;
  }
  await utils.forceUnlockWorkers(dead.map(({ workerId }) => workerId));
  for (const { workerId, jobs } of dead) {
    logger.warn(`dead worker sweep: released ${counted(jobs, 'job')} locked by dead worker ${workerId}`, { workerId, jobs });
  }
  return dead;
}
