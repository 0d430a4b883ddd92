/**
 * When a worker starts, every pull run still `running` (its driver died with its process) is driven
 * on from its last recorded page. Drivers of other processes lose their next append and stop, so a
 * run is never driven by two workers at once for longer than one page.
 */
import { Logger } from '@nestjs/common';
import { driveRun, type RunDriverDeps } from './drive-run';
import { unfinishedRuns } from './start-run';

const logger = new Logger('ContactSync');

export interface ResumedRuns {
  /** Stops after the pages in flight; the runs stay `running` for the next worker. */
  stop(): Promise<void>;
}

export async function resumeUnfinishedRuns(deps: Omit<RunDriverDeps, 'signal'>): Promise<ResumedRuns> {
  const shutdown = new AbortController();
  const runIds = await unfinishedRuns(deps.store);
  const drivers = runIds.map((runId) => driveInBackground({ ...deps, signal: shutdown.signal }, runId));
  if (runIds.length) logger.log(`resuming ${runIds.length} import run(s): ${runIds.join(', ')}`);
  return {
    stop: async () => {
      shutdown.abort();
      await Promise.all(drivers);
    },
  };
}

/** A run driven without anyone awaiting it: its end (or its failure) is logged, never thrown away. */
export function driveInBackground(deps: RunDriverDeps, runId: string): Promise<void> {
  return driveRun(deps, runId).then(
    (run) => logger.log(`import run ${runId}: ${run.status} after ${run.processed} records${run.reason ? ` (${run.reason})` : ''}`),
    (error: unknown) =>
      logger.error(`import run ${runId} stopped on an error; it resumes when a worker starts: ${(error as Error).message}`),
  );
}
