/**
 * Pull runs whose driver died go on from their last recorded page, driven by a worker:
 *
 * - when a worker starts, every run still `running` (its driver died with its process);
 * - while it runs, every run still `running` that nobody has recorded anything in for a while and
 *   that no driver in this process drives: its driver died in another process that has not come
 *   back, e.g. an api (which drives the runs started over HTTP) that crashed beside running workers.
 *
 * Drivers of other processes lose their next append and stop, so a run is never driven by two
 * workers at once for longer than one page; the silence rule only keeps that overlap rare.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { importStream } from '../contact.events';
import { driveRun, isDrivenHere, type RunDriverDeps } from './drive-run';
import { unfinishedRuns } from './start-run';
import type { RunsKnownAt } from '../import-run.view';

const logger = new Logger('ContactSync');

export interface ResumedRuns {
  /** Stops after the pages in flight; the runs stay `running` for the next worker. */
  stop(): Promise<void>;
}

export interface OrphanSweep {
  /** How often a running worker looks for orphaned runs. */
  everyMs: number;
  /**
   * How long a run may go without a recorded event before its driver counts as dead. A live driver
   * records a page at least every few seconds; the longest silence it keeps is a page failing all its
   * attempts (5 × the source's 10 s timeout, plus 7.5 s of backoff), well under the default.
   */
  silentForMs: number;
  /**
   * The runs that may be orphaned: those still running. Default: folded from the whole log's run
   * lifecycles, as a starting worker reads them; a worker passes the sync_runs read model's running
   * pull runs instead (contacts.feature.ts), since every push adds run events to that log and a sweep
   * every 30 s must not read them all.
   */
  candidates?: () => Promise<string[]>;
  /**
   * What the sync_runs read model knew at its checkpoint, for a starting worker: it then reads only the
   * lifecycle events after that checkpoint (start-run.ts). Default: none, the whole log is folded.
   */
  knownAtStart?: () => Promise<RunsKnownAt | undefined>;
}

export const DEFAULT_ORPHAN_SWEEP: OrphanSweep = { everyMs: 30_000, silentForMs: 180_000 };

/**
 * The runs one process drives without anyone awaiting them (a worker's resumed runs, the api's runs
 * started over HTTP). `stop()` ends them after the pages in flight, before the process closes its
 * database pool: a driver still appending into a closed pool failed with an error in the log.
 */
/**
 * Runs with a background driver in this process, whichever RunDrivers holds it (the api's and a worker's
 * share a process under `npm start`), retries included: a run is never driven twice by one process,
 * and the orphan sweep leaves a run alone while its driver waits to try again.
 */
const drivenInBackground = new Set<string>();

export class RunDrivers {
  private readonly shutdown = new AbortController();
  private readonly drivers = new Set<Promise<void>>();

  constructor(private readonly deps: Omit<RunDriverDeps, 'signal' | 'metadata'>) {}

  /** `metadata`: who drives it, for the events the driver appends. A run this process drives already is left to its driver. */
  drive(runId: string, metadata: RunDriverDeps['metadata']): void {
    if (this.shutdown.signal.aborted || drivenInBackground.has(runId)) return;
    drivenInBackground.add(runId);
    const driver = driveInBackground({ ...this.deps, metadata, signal: this.shutdown.signal }, runId);
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

export async function resumeUnfinishedRuns(
  deps: Omit<RunDriverDeps, 'signal'>,
  sweep: OrphanSweep = DEFAULT_ORPHAN_SWEEP,
): Promise<ResumedRuns> {
  const drivers = new RunDrivers(deps);
  const runIds = await unfinishedRuns(deps.store, 'pull', await sweep.knownAtStart?.());
  runIds.forEach((runId) => drivers.drive(runId, deps.metadata));
  if (runIds.length) logger.log(`resuming ${runIds.length} import run(s): ${runIds.join(', ')}`);

  let stopping = false;
  let sweeping: Promise<void> | undefined;
  const timer = setInterval(() => {
    sweeping ??= orphanedRuns(deps.store, sweep.silentForMs, Date.now(), sweep.candidates)
      .then((orphans) => {
        if (stopping) return;
        if (orphans.length) logger.warn(`taking over ${orphans.length} import run(s) whose driver went silent: ${orphans.join(', ')}`);
        orphans.forEach((runId) => drivers.drive(runId, deps.metadata));
      })
      .catch((error: unknown) => logger.error(`looking for orphaned import runs failed; trying again: ${(error as Error).message}`))
      .finally(() => (sweeping = undefined));
  }, sweep.everyMs);
  timer.unref();

  return {
    stop: async () => {
      stopping = true;
      clearInterval(timer);
      await sweeping;
      await drivers.stop();
    },
  };
}

/** Runs still `running`, driven by no one in this process, with nothing recorded in them for longer than `silentForMs` before `now`. */
export async function orphanedRuns(
  store: EventStore,
  silentForMs: number,
  now: number,
  running: () => Promise<string[]> = () => unfinishedRuns(store),
): Promise<string[]> {
  const candidates = (await running()).filter((runId) => !isDrivenHere(runId) && !drivenInBackground.has(runId));
  const silent = await Promise.all(
    candidates.map(async (runId) => {
      const [last] = await store.readStream(importStream(runId), { direction: 'backwards', maxCount: 1 });
      return last !== undefined && now - last.created.getTime() > silentForMs;
    }),
  );
  return candidates.filter((_, i) => silent[i]);
}

/** A background driver that failed drives its run again after this (doubling), as projections retry. */
const RETRY_DELAY_MS = { initial: 500, max: 30_000 };

/**
 * A run driven without anyone awaiting it: its end is logged, never thrown away. A driver that fails
 * (the database dropped its connections, the event store did not answer) drives the run again after a
 * backoff, from the run's last recorded page, until it ends or the process stops; before, the run sat
 * `running` until a worker started or found it silent for minutes. A run another driver took over
 * ends this one without an error (its append loses: drive-run.ts).
 */
function driveInBackground(deps: RunDriverDeps, runId: string): Promise<void> {
  return (async () => {
    for (let failures = 0; ; failures++) {
      try {
        const run = await driveRun(deps, runId);
        logger.log(`import run ${runId}: ${run.status} after ${run.processed} records${run.reason ? ` (${run.reason})` : ''}`);
        return;
      } catch (error) {
        const message = (error as Error).message;
        if (deps.signal?.aborted) {
          logger.error(`import run ${runId} stopped on an error while this process stops; the next worker takes it over: ${message}`);
          return;
        }
        const delay = Math.min(RETRY_DELAY_MS.initial * 2 ** failures, RETRY_DELAY_MS.max);
        logger.error(`import run ${runId} stopped on an error; driving it again in ${delay} ms: ${message}`);
        await sleep(delay, undefined, { signal: deps.signal }).catch(() => undefined);
        if (deps.signal?.aborted) return;
      }
    }
  })();
}
