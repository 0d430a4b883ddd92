/**
 * Runs graphile-worker's job loop in this process. Signal handling is left to the composition root
 * (the worker process stops projections and jobs together), hence `noHandleSignals`.
 *
 * Every job worker announces its slots (job-worker-liveness.ts) and sweeps, at start and then every
 * `deadWorkerSweepMs`, for jobs still locked by slots of workers that died (release-dead-workers-jobs.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { consoleLogFactory, Logger, makeWorkerUtils, run, type Runner, type TaskList, type Worker } from 'graphile-worker';
import { Pool } from 'pg';
import { openJobWorkerLiveness, type JobWorkerLiveness } from './job-worker-liveness';
import { releaseDeadWorkersJobs } from './release-dead-workers-jobs';
import { noticeRunningJobs } from './running-jobs-notice';
import { surviveLostConnections } from '../database/lost-connections';
import { clientWithDeadlines, DEFAULT_ANSWER_DEADLINES } from '../database/answer-deadlines';

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
  /** Settles when the worker stops; rejects if it crashed. */
  readonly done: Promise<void>;
}

type ResolvedOptions = StartJobWorkerOptions & { pool: Pool; concurrency: number; logger: Logger };

/** After losing its liveness session (a database restart), how long a worker waits between attempts to announce itself again. */
const REANNOUNCE_DELAY_MS = 1_000;

export async function startJobWorker(options: StartJobWorkerOptions): Promise<JobWorker> {
  if (!options.pool && !options.connectionString) throw new Error('startJobWorker needs a pool or a connectionString');
  const logger = options.logger ?? new Logger(consoleLogFactory);
  const concurrency = options.concurrency ?? 4;
  // A slot each, graphile's LISTEN connection and the sweep.
  const ownPool = options.pool
    ? undefined
    : surviveLostConnections(
        new Pool({
          connectionString: options.connectionString,
          max: concurrency + 2,
          Client: clientWithDeadlines(DEFAULT_ANSWER_DEADLINES),
        }),
      );
  const resolved: ResolvedOptions = { ...options, pool: options.pool ?? ownPool!, concurrency, logger };
  const { pool } = resolved;
  const started: Array<() => Promise<unknown>> = [async () => ownPool?.end()];
  const stopStarted = async () => {
    for (const stop of started.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
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
    return superviseAnnounced(resolved, await runAnnounced(resolved), stopStarted);
  } catch (error) {
    await stopStarted();
    throw error;
  }
}

interface AnnouncedRun {
  runner: Runner;
  liveness: JobWorkerLiveness;
  /** Finishes the running jobs, then ends the liveness session. */
  stop(): Promise<void>;
}

/**
 * A run whose liveness session failed stops (its running jobs finish: other workers may take them
 * over meanwhile, as for a dead worker) and a new run with new slot ids takes its place, announced
 * afresh: the worker outlives a database restart instead of waiting for its own.
 */
function superviseAnnounced(options: ResolvedOptions, first: AnnouncedRun, stopStarted: () => Promise<void>): JobWorker {
  const { logger } = options;
  const stopping = new AbortController();
  let current = first;
  const supervise = async () => {
    for (;;) {
      const lost = await Promise.race([current.runner.promise.then(() => undefined), current.liveness.lost]);
      if (!lost) return;
      logger.error(`job worker liveness lost (${lost.message}): finishing running jobs, then announcing new slots`, { error: lost });
      await current.stop();
      const next = await reannounce(options, stopping.signal);
      if (!next) return;
      current = next;
    }
  };
  const done = supervise().finally(async () => {
    await current.stop();
    await stopStarted();
  });
  // The composition root decides what a crashed job worker means; unwatched, it must not end the process.
  done.catch(() => undefined);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      stopping.abort();
      await current.stop();
      await done;
    })());
  return { stop, done };
}

async function reannounce(options: ResolvedOptions, signal: AbortSignal): Promise<AnnouncedRun | undefined> {
  while (!signal.aborted) {
    try {
      const next = await runAnnounced(options);
      if (!signal.aborted) return next;
      await next.stop();
    } catch (error) {
      options.logger.error(`job worker could not announce itself again: ${(error as Error).message}`, { error });
      await delay(REANNOUNCE_DELAY_MS, undefined, { signal }).catch(() => undefined);
    }
  }
  return undefined;
}

async function runAnnounced(options: ResolvedOptions): Promise<AnnouncedRun> {
  const liveness = await openJobWorkerLiveness(options.pool.options);
  // This run's slots, so that a stop can say which jobs it waits for (running-jobs-notice.ts).
  const slots = new Set<Worker>();
  try {
    const runner = await run({
      pgPool: options.pool,
      taskList: options.taskList,
      concurrency: options.concurrency,
      pollInterval: options.pollIntervalMs,
      logger: options.logger,
      noHandleSignals: true,
      // Schedules are the features' JobSchedule (src/bootstrap/background.ts), not graphile's cron. No
      // cron items keeps it from looking for a `crontab` file and logging that it found none at every
      // start (an empty `crontab: ''` did not: graphile reads an empty string as "no crontab given").
      parsedCronItems: [],
      preset: {
        plugins: [
          {
            name: 'IdemJobWorkerLiveness',
            worker: {
              hooks: {
                startWorker: (_context, { worker }) => {
                  slots.add(worker);
                  return liveness.announce(worker);
                },
              },
            },
          },
        ],
      },
      // Asked before every job a slot looks for: once this run cannot prove its slots alive, other
      // workers take their jobs over, so none of its slots takes another.
      forbiddenFlags: () => {
        if (liveness.broken) throw new Error('job worker liveness lost: taking no more jobs');
        return null;
      },
    });
    let stopped: Promise<void> | undefined;
    // runner.stop() only throws when graphile already stopped the runner itself (a crash `done` reports).
    const stop = () =>
      (stopped ??= noticeRunningJobs(runner.stop(), slots, options.logger).then(
        () => liveness.close(),
        () => liveness.close(),
      ));
    return { runner, liveness, stop };
  } catch (error) {
    await liveness.close();
    throw error;
  }
}
