/**
 * Runs graphile-worker's job loop in this process. Signal handling is left to the composition root
 * (the worker process stops projections and jobs together), hence `noHandleSignals`.
 */
import { run, type Logger, type TaskList } from 'graphile-worker';
import type { Pool } from 'pg';

export interface StartJobWorkerOptions {
  /** Either a pool of the read-model database or its URL. */
  pool?: Pool;
  connectionString?: string;
  taskList: TaskList;
  concurrency?: number;
  /** Fallback poll when LISTEN/NOTIFY misses a wake-up (graphile default 2000 ms). */
  pollIntervalMs?: number;
  logger?: Logger;
}

export interface JobWorker {
  stop(): Promise<void>;
  /** Settles when the worker stops; rejects if it crashed. */
  readonly done: Promise<void>;
}

export async function startJobWorker(options: StartJobWorkerOptions): Promise<JobWorker> {
  if (!options.pool && !options.connectionString) throw new Error('startJobWorker needs a pool or a connectionString');
  const runner = await run({
    pgPool: options.pool,
    connectionString: options.pool ? undefined : options.connectionString,
    taskList: options.taskList,
    concurrency: options.concurrency ?? 4,
    pollInterval: options.pollIntervalMs,
    logger: options.logger,
    noHandleSignals: true,
    // Schedules are the features' JobSchedule (src/bootstrap/background.ts), not graphile's cron. No
    // cron items keeps it from looking for a `crontab` file and logging that it found none at every
    // start (an empty `crontab: ''` did not: graphile reads an empty string as "no crontab given").
    parsedCronItems: [],
  });
  return { stop: () => runner.stop(), done: runner.promise };
}
