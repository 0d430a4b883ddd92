/**
 * Pull runs whose driver died go on from their last recorded page, driven by a worker:
 *
 * - when a worker starts, every run still `running` that no live process drives;
 * - while it runs, every run still `running` whose driver is gone since: it died (its run's lock
 *   was freed at once) or froze (freed once its session was silent for the lock's limit), e.g. an api
 *   (which drives the runs started over HTTP) that crashed beside running workers. A run the worker
 *   found driven elsewhere (at its start or at a sweep) is taken over the moment its lock frees, a
 *   graceful stop's included (RunDrivers.driveWhenFreed); one it has not seen yet, at its next sweep.
 *
 * Which process drives a run is decided by the run's lock (run-lock.ts), not by guessing from how
 * long the run has been silent: a starting worker used to drive every running run at once, including
 * one a live process was driving, and imported a page of its contacts before its page record lost.
 * A run driven elsewhere is left to its driver until then; one whose source this worker cannot reach
 * as the run started with is left alone (run-drivers.ts: sourceRefusal).
 */
import { Logger } from '@nestjs/common';
import { isDrivenHere, type RunDriverDeps } from './drive-run';
import { isDrivenInBackground, isLeftAlone, RunDrivers } from './run-drivers';
import type { RunLocks } from './run-lock';
import { unfinishedRuns } from './start-run';
import type { RunsKnownAt } from '../import-run.view';
import { counted } from '../../../src/text/counted';

const logger = new Logger('ContactSync');

export interface ResumedRuns {
  /** Stops after the pages in flight; the runs stay `running` for the next worker. */
  stop(): Promise<void>;
}

export interface OrphanSweep {
  /**
   * How often a running worker looks for orphaned runs, and for runs driven elsewhere to wait for: a
   * dead driver's run is taken over within this (a frozen one's within this plus the lock's silence
   * limit, run-lock.ts), at once when the worker was already waiting for it.
   */
  everyMs: number;
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

export const DEFAULT_ORPHAN_SWEEP: OrphanSweep = { everyMs: 30_000 };

export async function resumeUnfinishedRuns(
  deps: Omit<RunDriverDeps, 'signal' | 'locks'> & { locks: RunLocks },
  sweep: OrphanSweep = DEFAULT_ORPHAN_SWEEP,
): Promise<ResumedRuns> {
  const drivers = new RunDrivers(deps);
  const running = await unfinishedRuns(deps.store, 'pull', await sweep.knownAtStart?.());
  const { orphans: runIds, drivenElsewhere } = await runsToTakeOver(deps.locks, () => Promise.resolve(running));
  runIds.forEach((runId) => drivers.drive(runId, deps.metadata));
  if (runIds.length) logger.log(`resuming ${counted(runIds.length, 'import run')} no live process drives: ${runIds.join(', ')}`);
  drivenElsewhere.forEach((runId) => drivers.driveWhenFreed(runId, deps.metadata));

  let stopping = false;
  let sweeping: Promise<void> | undefined;
  const timer = setInterval(() => {
    sweeping ??= runsToTakeOver(deps.locks, sweep.candidates ?? (() => unfinishedRuns(deps.store)))
      .then(({ orphans, drivenElsewhere }) => {
        if (stopping) return;
        if (orphans.length) logger.warn(`taking over ${counted(orphans.length, 'import run')} whose driver is gone: ${orphans.join(', ')}`);
        orphans.forEach((runId) => drivers.drive(runId, deps.metadata));
        drivenElsewhere.forEach((runId) => drivers.driveWhenFreed(runId, deps.metadata));
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

/**
 * Runs still `running` that no live driver holds (their lock is free), driven by no one in this
 * process, and not left alone here for their source (run-drivers.ts). Taking one may still lose to
 * another worker's sweep: the loser is refused the lock and leaves it (drive-run.ts).
 */
export async function orphanedRuns(locks: Pick<RunLocks, 'holder'>, running: () => Promise<string[]>): Promise<string[]> {
  return (await runsToTakeOver(locks, running)).orphans;
}

/**
 * The running runs this process may take over, driven by no one here and not left alone here: the
 * orphans (no live driver holds their lock), to drive now, and those another live process drives, to
 * drive once it lets them go (RunDrivers.driveWhenFreed: at once, not at the next sweep).
 */
export async function runsToTakeOver(
  locks: Pick<RunLocks, 'holder'>,
  running: () => Promise<string[]>,
): Promise<{ orphans: string[]; drivenElsewhere: string[] }> {
  const candidates = (await running()).filter((runId) => !isDrivenHere(runId) && !isDrivenInBackground(runId) && !isLeftAlone(runId));
  const held = await Promise.all(candidates.map(async (runId) => (await locks.holder(runId)) !== undefined));
  return { orphans: candidates.filter((_, i) => !held[i]), drivenElsewhere: candidates.filter((_, i) => held[i]) };
}
