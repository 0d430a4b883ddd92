/**
 * The worker's work, in whichever process runs it (`worker.js` in production, the api process under
 * `npm start`), for the features it is given: the projection runner (their read models and reactors),
 * the job queue with their tasks, their schedules, and their background services (see
 * src/features/feature.ts). `stop()` finishes running jobs before returning.
 */
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Logger as JobLogger } from 'graphile-worker';
import { jobLogFactory, type JobLogLevel } from '../jobs/job-log';
import { projectionLanesOf, reactorsOf, readModelsOf, taskListOf, type Feature, type WorkerContext } from '../features/feature';
import { installJobQueue } from '../jobs/install-job-queue';
import { startJobWorker, type JobWorker } from '../jobs/job-worker';
import { endPool } from './end-pool';
import { startProjections, type RunningProjections } from '../subscriptions/start-projections';
import { openReadModels, type ReadModels } from './read-models';
import type { Runtime } from './runtime';
import { StopStack } from './stop-stack';

/**
 * graphile-worker's get_job takes the first available job in (priority, run_at) order, which its
 * index gives directly. But the jobs table is empty whenever statistics are taken and full during a
 * burst, and get_job is a prepared statement: its cached plan, made for an empty table, reads every
 * available job with a bitmap scan and sorts them, ~2 ms a call with 2,000 jobs queued against well
 * under 1 ms for the index walk (measured; docs/BENCHMARKS.md). Without bitmap scans and sorts the
 * planner can only walk the index. These apply to the queue's own connections only; its other
 * statements find rows by primary key either way.
 */
const JOB_QUEUE_PLANNER_SETTINGS = { enable_bitmapscan: 'off', enable_sort: 'off' };

export interface Background {
  projections: RunningProjections;
  jobs: JobWorker;
  readModels: ReadModels;
  workerId: string;
  stop(): Promise<void>;
}

const logger = new Logger('Worker');
const projectionLogger = new Logger('Projections');

/** The runners' own lines: above all a projection failing on an event, retried with backoff until someone looks. */
function logProjections(level: 'info' | 'warn' | 'error', message: string, error?: unknown): void {
  const line = error === undefined ? message : `${message}: ${error instanceof Error ? error.message : String(error)}`;
  if (level === 'error') projectionLogger.error(line);
  else if (level === 'warn') projectionLogger.warn(line);
  else projectionLogger.log(line);
}

/**
 * graphile-worker's log lines through Nest's logger, filtered by LOG_LEVEL; a failed attempt retried
 * for an expected reason is one warning line, without the stack (src/jobs/job-log.ts).
 */
function jobLogger(level: JobLogLevel): JobLogger {
  return new JobLogger(
    jobLogFactory(level, (lineLevel, line) => {
      if (lineLevel === 'error') logger.error(line);
      else if (lineLevel === 'warn') logger.warn(line);
      else logger.log(line);
    }),
  );
}

export interface BackgroundOptions {
  workerId?: string;
  /** The api process's read models, shared; without them the background opens (and closes) its own. */
  readModels?: ReadModels;
}

export async function startBackground(
  runtime: Runtime,
  features: readonly Feature[],
  options: BackgroundOptions = {},
): Promise<Background> {
  const { config, pool, eventStore: store } = runtime;
  const workerId = options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  // What has started so far, to stop newest first: on stop(), and when a later piece fails to start
  // (the projections and read models already running would otherwise outlive the failed start).
  const started = new StopStack();
  try {
    const readModels = options.readModels ?? started.push(await openReadModels(runtime, features), (opened) => opened.close());
    await installJobQueue(pool);
    const worker: WorkerContext = { config, store, pool, workerId, readModels: readModels.dataSource };

    const projections = started.push(
      await startProjections({
        store,
        pool,
        readModels: readModelsOf(features),
        reactors: reactorsOf(features, config),
        lanes: projectionLanesOf(features, config),
        log: logProjections,
      }),
      (running) => running.stop(),
    );
    const jobs = started.push(await startJobs(runtime, features, worker), (running) => running.stop());
    const timers = features
      .flatMap((feature) => feature.schedules ?? [])
      .map(({ task, intervalMs }) => {
        // One pending run at a time across every worker process: the job key deduplicates.
        const schedule = () =>
          pool
            .query(`SELECT graphile_worker.add_job($1, '{}'::json, job_key => $1, job_key_mode => 'preserve_run_at')`, [task])
            .catch((error) => logger.warn(`could not schedule ${task}: ${(error as Error).message}`));
        const timer = setInterval(() => void schedule(), intervalMs(config));
        timer.unref();
        return timer;
      });
    started.push(timers, async (all) => all.forEach(clearInterval));
    for (const feature of features) {
      for (const start of feature.services ?? []) started.push(await start(worker), (service) => service.stop());
    }
    return { projections, jobs, readModels, workerId, stop: () => started.stopAll() };
  } catch (error) {
    await started.stopAll().catch((stopError: unknown) => logger.error(`stopping after a failed start: ${(stopError as Error).message}`));
    throw error;
  }
}

/**
 * The job queue on its own pool: graphile-worker's statements (get_job, complete_job, its LISTEN
 * connection) get a connection per slot, and the dead worker sweep one more, so they never queue behind
 * the api's requests in the shared pool (the slots' liveness session is a connection of its own). The
 * jobs' event-store reads and appends still go through the runtime's store: its appends wake the
 * projections in this process (10 ms later, see runtime.ts) without waiting for a poll.
 */
async function startJobs(runtime: Runtime, features: readonly Feature[], worker: WorkerContext): Promise<JobWorker> {
  const { config } = runtime;
  const jobPool = runtime.openPool({
    max: config.worker.concurrency + 2,
    applicationName: 'idem-jobs',
    settings: JOB_QUEUE_PLANNER_SETTINGS,
  });
  const jobs = await startJobWorker({
    pool: jobPool,
    concurrency: config.worker.concurrency,
    pollIntervalMs: config.worker.jobPollMs,
    deadWorkerSweepMs: config.worker.deadWorkerSweepMs,
    logger: jobLogger(config.logLevel),
    taskList: taskListOf(features, worker),
  }).catch(async (error: unknown) => {
    await jobPool.end();
    throw error;
  });
  // Stopping twice (a test stops the jobs early, then the whole background) is not an error.
  let jobsStopping: Promise<void> | undefined;
  const stopJobs = async () => {
    await jobs.stop().finally(() => endPool(jobPool));
  };
  return { done: jobs.done, stop: () => (jobsStopping ??= stopJobs()) };
}
