/**
 * Enqueues graphile-worker jobs through the caller's connection, so the jobs exist exactly when the
 * caller's transaction commits: a reactor passes the transaction that also moves its checkpoint, and
 * a job can be neither lost (crash before commit: neither exists, the events are redelivered) nor
 * enqueued twice (crash after commit: both exist, the events are not redelivered).
 */
import type { PoolClient } from 'pg';

export interface EnqueueOptions {
  /**
   * Deduplicates pending work: adding a job whose key is already waiting replaces that job instead of
   * adding another. Keys are global across tasks in graphile-worker, so prefix them with the task.
   */
  jobKey?: string;
  queueName?: string;
  runAt?: Date;
  maxAttempts?: number;
  priority?: number;
}

export interface JobToEnqueue {
  task: string;
  payload: unknown;
  options?: EnqueueOptions;
}

/** `client` must be inside an open transaction (BEGIN issued, not yet committed). */
export async function enqueueInTransaction(
  client: PoolClient,
  task: string,
  payload: unknown,
  options: EnqueueOptions = {},
): Promise<void> {
  await enqueueManyInTransaction(client, [{ task, payload, options }]);
}

/**
 * One round trip for a whole reactor batch (`graphile_worker.add_jobs`). Two jobs with the same key
 * in one call would conflict inside a single statement, so only the last one per key is sent: the
 * same outcome as adding them one after the other, where each replaces the one before.
 */
export async function enqueueManyInTransaction(client: PoolClient, jobs: JobToEnqueue[]): Promise<void> {
  const lastPerKey = new Map<string, JobToEnqueue>();
  const specs: JobToEnqueue[] = [];
  for (const job of jobs) {
    const key = job.options?.jobKey;
    if (key === undefined) {
      specs.push(job);
    } else {
      lastPerKey.delete(key);
      lastPerKey.set(key, job);
    }
  }
  specs.push(...lastPerKey.values());
  if (!specs.length) return;
  const column = <T>(pick: (job: JobToEnqueue) => T) => specs.map(pick);
  await client.query({
    name: 'idem_enqueue_jobs',
    text: `SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
             SELECT ROW(identifier, payload, queue_name, run_at, max_attempts, job_key, priority, NULL)::graphile_worker.job_spec
               FROM unnest($1::text[], $2::json[], $3::text[], $4::timestamptz[], $5::smallint[], $6::text[], $7::smallint[])
                 AS s(identifier, payload, queue_name, run_at, max_attempts, job_key, priority)))`,
    values: [
      column((j) => j.task),
      column((j) => JSON.stringify(j.payload ?? {})),
      column((j) => j.options?.queueName ?? null),
      column((j) => j.options?.runAt?.toISOString() ?? null),
      column((j) => j.options?.maxAttempts ?? null),
      column((j) => j.options?.jobKey ?? null),
      column((j) => j.options?.priority ?? null),
    ],
  });
}
