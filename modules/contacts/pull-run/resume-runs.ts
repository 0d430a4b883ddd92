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
import { Logger } from '@nestjs/common';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { importStream } from '../contact.events';
import { isDrivenHere, type RunDriverDeps } from './drive-run';
import { isDrivenInBackground, RunDrivers } from './run-drivers';
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
  const candidates = (await running()).filter((runId) => !isDrivenHere(runId) && !isDrivenInBackground(runId));
  const silent = await Promise.all(
    candidates.map(async (runId) => {
      const [last] = await store.readStream(importStream(runId), { direction: 'backwards', maxCount: 1 });
      return last !== undefined && now - last.created.getTime() > silentForMs;
    }),
  );
  return candidates.filter((_, i) => silent[i]);
}
