/**
 * The worker's work, in whichever process runs it (`worker.js` in production, the api process under
 * `npm start`): the projection runner (read models and reactors), the job queue with the charge and
 * recovery tasks, and the recovery schedule. `stop()` finishes running jobs before returning.
 */
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Logger as JobLogger, type LogLevel, type Task } from 'graphile-worker';
import { ChargeOutcomeStillUnknown, recoverStuckCharges, runChargeOrderJob, type PaymentGateway } from '../../modules/payments';
import { resumeUnfinishedRuns, type ContactSources } from '../../modules/contacts';
import { CHARGE_ORDER_TASK, READ_MODELS, REACTORS, type ChargeOrderPayload } from '../../projections';
import { installJobQueue } from '../jobs/install-job-queue';
import { startJobWorker, type JobWorker } from '../jobs/job-worker';
import { startProjections, type RunningProjections } from '../subscriptions/start-projections';
import { openReadModels, type ReadModels } from './read-models';
import type { Runtime } from './runtime';

export const RECOVER_STUCK_CHARGES_TASK = 'recover-stuck-charges';

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

const SEVERITY = { error: 0, warning: 1, info: 2, debug: 3 } as const;

/** graphile-worker's log lines through Nest's logger, filtered by LOG_LEVEL. */
function jobLogger(level: 'error' | 'warn' | 'info' | 'debug'): JobLogger {
  const threshold = { error: 0, warn: 1, info: 2, debug: 3 }[level];
  return new JobLogger((scope) => (logLevel: LogLevel, message: string) => {
    if (SEVERITY[logLevel] > threshold) return;
    const line = `${scope.label ?? 'jobs'}: ${message}`;
    if (logLevel === 'error') logger.error(line);
    else if (logLevel === 'warning') logger.warn(line);
    else logger.log(line);
  });
}

export async function startBackground(runtime: Runtime, gateway: PaymentGateway, options: { workerId?: string; readModels?: ReadModels; contactSources?: ContactSources } = {}): Promise<Background> {
  const { config, pool, eventStore: store } = runtime;
  const workerId = options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  // The api process shares its read models; a worker process opens its own (and closes them).
  const readModels = options.readModels ?? (await openReadModels(runtime));
  await installJobQueue(pool);
  const { orders } = readModels;
  const deps = { store, gateway, workerId, pool };

  const chargeOrderTask: Task = async (payload, helpers) => {
    const { orderId } = payload as ChargeOrderPayload;
    const result = await runChargeOrderJob(deps, orderId, `job:${helpers.job.id}`);
    helpers.logger.debug(`order ${orderId}: ${result}`);
  };
  const recoverTask: Task = async () => {
    const results = await recoverStuckCharges(deps, (statuses, after, before, limit) => orders.findStuckOrders(statuses, after, before, limit), {
      thresholdMs: config.worker.recoveryThresholdMs,
      windowMs: config.worker.recoveryWindowMs,
      trigger: 'schedule',
    });
    if (results.length) logger.log(`recovery looked at ${results.length} stuck order(s)`);
  };

  const projections = await startProjections({ store, pool, readModels: READ_MODELS, reactors: REACTORS });
  // graphile-worker's own statements (get_job, complete_job, its LISTEN connection) get a pool with a
  // connection per slot, so they never queue behind the api's requests in the shared pool. The jobs'
  // event-store reads and appends still go through the runtime's store: its appends wake the
  // projections in this process (10 ms later, see runtime.ts) without waiting for a poll.
  const jobPool = runtime.openPool({ max: config.worker.concurrency + 1, applicationName: 'idem-jobs', settings: JOB_QUEUE_PLANNER_SETTINGS });
  const jobs = await startJobWorker({
    pool: jobPool,
    concurrency: config.worker.concurrency,
    pollIntervalMs: config.worker.jobPollMs,
    logger: jobLogger(config.logLevel),
    taskList: {
      // An unknown outcome is recorded before the task fails; the queue's retry then verifies first.
      [CHARGE_ORDER_TASK]: async (payload, helpers) => {
        try {
          await chargeOrderTask(payload, helpers);
        } catch (error) {
          if (error instanceof ChargeOutcomeStillUnknown) helpers.logger.warn(error.message);
          throw error;
        }
      },
      [RECOVER_STUCK_CHARGES_TASK]: recoverTask,
    },
  }).catch(async (error: unknown) => {
    await jobPool.end();
    throw error;
  });
  // One pending sweep at a time across every worker process: the job key deduplicates.
  const scheduleRecovery = () =>
    pool
      .query(`SELECT graphile_worker.add_job($1, '{}'::json, job_key => $1, job_key_mode => 'preserve_run_at')`, [RECOVER_STUCK_CHARGES_TASK])
      .catch((error) => logger.warn(`could not schedule recovery: ${(error as Error).message}`));
  const timer = setInterval(() => void scheduleRecovery(), config.worker.recoveryIntervalMs);
  timer.unref();
  // Stopping twice (a test stops the jobs early, then the whole background) is not an error.
  let jobsStopping: Promise<void> | undefined;
  const stopJobs = async () => {
    await jobs.stop().finally(() => jobPool.end());
  };
  const stoppableJobs: JobWorker = { done: jobs.done, stop: () => (jobsStopping ??= stopJobs()) };

  // Import runs whose driver died with its process go on from their last recorded page.
  const contactRuns = options.contactSources
    ? await resumeUnfinishedRuns({ store, sources: options.contactSources, metadata: { correlationId: workerId, causationId: workerId, actor: { role: 'worker', tokenId: workerId } } })
    : undefined;

  return {
    projections,
    jobs: stoppableJobs,
    readModels,
    workerId,
    async stop() {
      clearInterval(timer);
      await contactRuns?.stop();
      await stoppableJobs.stop();
      await projections.stop();
      if (!options.readModels) await readModels.close();
    },
  };
}
