/**
 * The runs one process drives without anyone awaiting them (a worker's resumed runs, the api's runs
 * started over HTTP). `stop()` ends them after the pages in flight, before the process closes its
 * database pool: a driver still appending into a closed pool failed with an error in the log.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { AppError, type AppErrorKind } from '../../../src/errors/app-error';
import { StreamDeleted } from '../../../src/event-store/errors';
import type { ContactSources } from '../contact-source/contact-source.port';
import type { ImportRunState } from '../import-run.state';
import { fencedStore } from './fenced-store';
import { appendRunEvents, driveRun, loadRun, type RunDriverDeps } from './drive-run';
import { decideDriverGaveUp, sourceMovedReason } from './record-page.decision';
import { knownRun } from './run-folds';
import { RunDrivenElsewhere, type HeldRun, type RunLocks } from './run-lock';

const logger = new Logger('ContactSync');

/**
 * Runs with a background driver in this process, whichever RunDrivers holds it (the api's and a worker's
 * share a process under `npm start`), retries and waits for a run's lock included: a run is never driven
 * twice by one process, and the orphan sweep leaves a run alone while its driver waits.
 */
const drivenInBackground = new Set<string>();

/** Whether a background driver of this process holds the run (driving it, waiting to try again, or waiting for its lock). */
export const isDrivenInBackground = (runId: string): boolean => drivenInBackground.has(runId);

/**
 * Runs this process leaves alone, with the line it logged once about each: their source is not
 * configured here, or is configured as another CRM than the one they started with. Configuration is
 * read once per process, so the answer does not change while it runs, and the orphan sweep skips them.
 */
const leftAlone = new Map<string, string>();

/** Whether this process leaves the run alone because it cannot reach the run's source as configured here. */
export const isLeftAlone = (runId: string): boolean => leftAlone.has(runId);

/**
 * Why a background driver configured with `sources` leaves the run alone (undefined: it may drive it).
 * A worker configured with another CRM ended such runs `needs_review` (decideSourceMoved): a run that a
 * worker configured with the run's own CRM would finish — the api that started it, the next worker
 * once a rolling configuration change reaches it — was stopped by whichever misconfigured worker found
 * it first, and a human had to resume it. Left `running`, it goes on wherever its CRM is configured;
 * `idem sync list` and GET /v1/sync/runs show it running with the CRM it is tied to, this process says
 * why once, and `idem sync resume` where its CRM is configured (or `--source-moved`) goes on with it.
 */
export function sourceRefusal(run: ImportRunState, sources: ContactSources): string | undefined {
  if (!run.exists || run.status !== 'running' || run.kind !== 'pull') return undefined;
  const configured = sources(run.source);
  if (!configured) return `no contact source is configured here under the name ${run.source}`;
  return sourceMovedReason(run, configured);
}

/** What a background driver needs: a driver's deps, the runs' locks and, for tests, its retry delays. */
export type BackgroundDriverDeps = Omit<RunDriverDeps, 'signal' | 'metadata' | 'locks'> & {
  locks: RunLocks;
  /** The wait after a failed attempt, doubling while failures follow one another (default RETRY_DELAY_MS). */
  retryDelayMs?: { initial: number; max: number };
};

export class RunDrivers {
  private readonly shutdown = new AbortController();
  private readonly drivers = new Set<Promise<void>>();

  constructor(private readonly deps: BackgroundDriverDeps) {}

  /** `metadata`: who drives it, for the events the driver appends. A run this process drives already is left to its driver. */
  drive(runId: string, metadata: RunDriverDeps['metadata']): void {
    this.start(runId, metadata, (deps) => driveInBackground(deps, runId));
  }

  /**
   * Drives a run another live process drives as soon as that process lets it go (it stopped, died or
   * froze past the lock's silence limit), instead of at the next orphan sweep: the run's lock is
   * waited for on a connection of its own, at most MAX_WAITING runs at once per process.
   */
  driveWhenFreed(runId: string, metadata: RunDriverDeps['metadata']): void {
    if (waitingFor.size >= MAX_WAITING) return;
    this.start(runId, metadata, (deps) => takeOverWhenFreed(deps, runId));
  }

  private start(runId: string, metadata: RunDriverDeps['metadata'], run: (deps: BackgroundDeps) => Promise<void>): void {
    if (this.shutdown.signal.aborted || drivenInBackground.has(runId)) return;
    drivenInBackground.add(runId);
    const driver = run({ ...this.deps, metadata, signal: this.shutdown.signal });
    this.drivers.add(driver);
    void driver.finally(() => {
      this.drivers.delete(driver);
      drivenInBackground.delete(runId);
    });
  }

  /** How many runs are being driven right now. */
  get driving(): number {
    return this.drivers.size;
  }

  /** The runs stay `running` for the next worker. */
  async stop(): Promise<void> {
    this.shutdown.abort();
    await Promise.all(this.drivers);
  }
}

/** A background driver's deps while it runs. */
type BackgroundDeps = RunDriverDeps & Pick<BackgroundDriverDeps, 'retryDelayMs' | 'locks'> & { signal: AbortSignal };

/** Runs this process waits to take over (driveWhenFreed): each wait holds a connection. */
const waitingFor = new Set<string>();
const MAX_WAITING = 4;

/**
 * Waits for the run's lock, then drives the run with it (its first attempt; a retry takes the lock again
 * as any driver does). A run that ended meanwhile, as it usually has when its driver lets it go, is left quietly.
 */
async function takeOverWhenFreed(deps: BackgroundDeps, runId: string): Promise<void> {
  waitingFor.add(runId);
  let held: HeldRun | undefined;
  try {
    held = await deps.locks.waitFor(runId, deps.signal);
  } catch (error) {
    // The next orphan sweep looks again.
    logger.error(`waiting to take over import run ${runId} failed: ${(error as Error).message}`);
  } finally {
    waitingFor.delete(runId);
  }
  if (!held) return;
  let handed = false;
  try {
    if ((await loadRun(deps.store, runId)).status !== 'running') return;
    logger.warn(`taking over import run ${runId}: the process that drove it let it go`);
    const first = held;
    const take = (id: string) => (id === runId && !handed ? ((handed = true), Promise.resolve(first)) : deps.locks.take(id));
    await driveInBackground({ ...deps, locks: { ...deps.locks, take } }, runId);
  } catch (error) {
    // Only the run's load can fail here (driveInBackground never rejects): the next orphan sweep looks again.
    logger.error(`taking over import run ${runId} failed: ${(error as Error).message}`);
  } finally {
    if (!handed) await held.release();
  }
}

/** A background driver that failed drives its run again after this (doubling), as projections retry. */
const RETRY_DELAY_MS = { initial: 500, max: 30_000 };

/**
 * How long a driver waits before driving its run again after `failures` failures in a row (counted
 * from 0, and from 0 again once it has recorded a page since: a stall's grown delay must not idle the run later).
 */
export const retryDelay = (failures: number, { initial, max } = RETRY_DELAY_MS): number => Math.min(initial * 2 ** failures, max);

/**
 * A run driven without anyone awaiting it: its end is logged, never thrown away. A run whose source
 * this process cannot reach as configured is left alone (sourceRefusal), saying why once; a run
 * another live process drives (its lock is held: run-lock.ts) is left to that driver, quietly. A driver that fails
 * (the database dropped its connections, the event store did not answer) drives the run again after a
 * backoff, from the run's last recorded page, until it ends or the process stops; before, the run sat
 * `running` until a worker started or found it silent for minutes. A run another driver took over
 * ends this one without an error (its append loses: drive-run.ts). An error that driving again cannot
 * fix (isPermanent) stops the run as `needs_review` with that error as its reason, as the stop rules
 * do, and logs it at error level: retried every 30 s, it kept the run `running` forever, logging the
 * same error, and no one was asked to look.
 */
function driveInBackground(deps: RunDriverDeps & Pick<BackgroundDriverDeps, 'retryDelayMs'>, runId: string): Promise<void> {
  return (async () => {
    // The run's revision when the current attempt began: a failure after this driver recorded pages
    // follows progress, and starts the backoff over (a stall's doubled delay must not idle the run later).
    let startedAt = -1;
    for (let failures = 0; ; failures++) {
      try {
        startedAt = knownRun(deps.store, runId)?.revision ?? -1;
        const loaded = await loadRun(deps.store, runId);
        startedAt = loaded.revision;
        const refused = sourceRefusal(loaded, deps.sources);
        if (refused) return leaveAlone(runId, refused);
        const run = await driveRun(deps, runId);
        logger.log(`import run ${runId}: ${run.status} after ${run.processed} records${run.reason ? ` (${run.reason})` : ''}`);
        return;
      } catch (error) {
        if (error instanceof RunDrivenElsewhere) return;
        const message = (error as Error).message;
        if (deps.signal?.aborted) {
          logger.error(`import run ${runId} stopped on an error while this process stops; the next worker takes it over: ${message}`);
          return;
        }
        if (isPermanent(error) && (await stopForReview(deps, runId, message))) return;
        if ((knownRun(deps.store, runId)?.revision ?? -1) > startedAt) failures = 0;
        const delay = retryDelay(failures, deps.retryDelayMs);
        logger.error(`import run ${runId} stopped on an error; driving it again in ${delay} ms: ${message}`);
        await sleep(delay, undefined, { signal: deps.signal }).catch(() => undefined);
        if (deps.signal?.aborted) return;
      }
    }
  })();
}

function leaveAlone(runId: string, reason: string): void {
  if (leftAlone.get(runId) !== reason)
    logger.warn(`import run ${runId} is left running for a process that reaches its source as it started: ${reason}`);
  leftAlone.set(runId, reason);
}

/**
 * Records the run's `needs_review` for an error driving it again cannot fix, holding the run's lock
 * while it does (a driver elsewhere that took the run meanwhile is left to it). True when the driver is
 * done with the run (recorded, or the run had ended or moved on meanwhile, or even this append is
 * refused for good); false when recording failed for now (a lost connection): the driver tries again.
 */
async function stopForReview(deps: RunDriverDeps, runId: string, message: string): Promise<boolean> {
  const cannotFix = `import run ${runId} stopped on an error that driving it again cannot fix`;
  try {
    const held = await deps.locks?.take(runId);
    if (deps.locks && !held) return true;
    try {
      const run = await loadRun(deps.store, runId);
      const writes = held ? fencedStore(deps.store, held) : deps.store;
      if (run.status === 'running' && (await appendRunEvents({ ...deps, writes }, run, [decideDriverGaveUp(run, message)])))
        logger.error(`${cannotFix}; it needs review: ${message}`);
    } finally {
      await held?.release();
    }
    return true;
  } catch (recordError) {
    if (!isPermanent(recordError)) return false;
    logger.error(`${cannotFix}, and its needs_review cannot be recorded (${(recordError as Error).message}): ${message}`);
    return true;
  }
}

/** AppError kinds that name the input, not the moment: the same page breaks the same rule again. */
const PERMANENT_KINDS = new Set<AppErrorKind>(['validation', 'unprocessable', 'payload_too_large']);

/**
 * An error that driving the run again cannot fix: the store refuses the append for good (an event it
 * never takes, InvalidAppend; a stream deleted outside Idem, StreamDeleted, e.g. the run's own — a
 * contact's is answered `rejected` on its record, import-records.ts), or a
 * rule the page breaks. Anything else (a lost connection, a store that did not answer, an error not
 * known here) may pass, and is retried: a run stopped for nothing would wait for a human.
 */
export function isPermanent(error: unknown): boolean {
  if (error instanceof StreamDeleted) return true;
  return error instanceof AppError && PERMANENT_KINDS.has(error.kind);
}
