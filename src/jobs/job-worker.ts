/**
 * Runs graphile-worker's job loop in this process. Signal handling is left to the composition root
 * (the worker process stops projections and jobs together), hence `noHandleSignals`.
 *
 * Every job worker announces its slots (job-worker-liveness.ts) and sweeps, at start and then every
 * `deadWorkerSweepMs`, for jobs still locked by slots of workers that died (release-dead-workers-jobs.ts).
 */
import { consoleLogFactory, Logger, makeWorkerUtils, run, type TaskList } from 'graphile-worker';
import { Pool } from 'pg';
import { openJobWorkerLiveness, type JobWorkerLiveness } from './job-worker-liveness';
import { releaseDeadWorkersJobs } from './release-dead-workers-jobs';

export interface StartJobWorkerOptions {
  /** Either a pool of the read-model database or its URL. */
  pool?: Pool;
  connectionString?: string;
  taskList: TaskList;
  concurrency?: number;
  /** Fallback poll when LISTEN/NOTIFY misses a wake-up (graphile default 2000 ms). */
  pollIntervalMs?: number;
  /** How often this worker looks for jobs locked by dead workers (default one minute). */
  deadWorkerSweepMs?: number;
  logger?: Logger;
}

export interface JobWorker {
  stop(): Promise<void>;
  /** Settles when the worker stops; rejects if it crashed or lost its liveness connection. */
  readonly done: Promise<void>;
}

export async function startJobWorker(options: StartJobWorkerOptions): Promise<JobWorker> {
  if (!options.pool && !options.connectionString) throw new Error('startJobWorker needs a pool or a connectionString');
  const logger = options.logger ?? new Logger(consoleLogFactory);
  const concurrency = options.concurrency ?? 4;
  // A slot each, and graphile's LISTEN connection.
  const ownPool = options.pool ? undefined : new Pool({ connectionString: options.connectionString, max: concurrency + 1 });
  const pool = options.pool ?? ownPool!;
  const started: Array<() => Promise<unknown>> = [async () => ownPool?.end()];
  const stopStarted = async () => {
    for (const stop of started.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
    const liveness = await openJobWorkerLiveness(pool.options);
    started.push(() => liveness.close());
    const utils = await makeWorkerUtils({ pgPool: pool, logger });
    started.push(async () => utils.release());
    const sweep = () => releaseDeadWorkersJobs(pool, utils, logger);
    // At start, before this worker's slots ask for jobs: a restarted worker picks up what it left.
    await sweep();
    const timer = setInterval(
      () => void sweep().catch((error: Error) => logger.error(`dead worker sweep failed: ${error.message}`, { error })),
      options.deadWorkerSweepMs ?? 60_000,
    );
    timer.unref();
    started.push(async () => clearInterval(timer));
    return await runAnnounced({ ...options, pool, concurrency, logger }, liveness, stopStarted);
  } catch (error) {
    await stopStarted();
    throw error;
  }
}

async function runAnnounced(
  options: StartJobWorkerOptions & { pool: Pool; concurrency: number; logger: Logger },
  liveness: JobWorkerLiveness,
  stopStarted: () => Promise<void>,
): Promise<JobWorker> {
  const { logger } = options;
  const runner = await run({
    pgPool: options.pool,
    taskList: options.taskList,
    concurrency: options.concurrency,
    pollInterval: options.pollIntervalMs,
    logger,
    noHandleSignals: true,
    // Schedules are the features' JobSchedule (src/bootstrap/background.ts), not graphile's cron. No
    // cron items keeps it from looking for a `crontab` file and logging that it found none at every
    // start (an empty `crontab: ''` did not: graphile reads an empty string as "no crontab given").
    parsedCronItems: [],
    preset: {
      plugins: [
        {
          name: 'IdemJobWorkerLiveness',
          worker: { hooks: { startWorker: (_context, { worker }) => liveness.announce(worker) } },
        },
      ],
    },
    // Asked before every job a slot looks for: once this process cannot prove its slots alive, other
    // workers take their jobs over, so none of its slots takes another.
    forbiddenFlags: () => {
      if (liveness.broken) throw new Error('job worker liveness lost: taking no more jobs');
      return null;
    },
  });
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= runner.stop().finally(stopStarted));
  const lost = liveness.lost.then(async (error) => {
    logger.error(`job worker liveness lost (${error.message}): other workers may take this worker's jobs over; stopping`, { error });
    await stop();
    throw error;
  });
  const done = Promise.race([runner.promise.finally(stopStarted), lost]);
  // The composition root decides what a crashed job worker means; unwatched, it must not end the process.
  done.catch(() => undefined);
  return { stop, done };
}
