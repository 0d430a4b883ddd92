/**
 * On every worker, every so often: push runs that no request can finish any more are ended with
 * ImportRunFailed and the reason (abandon-push.decision.ts), so they stop showing `running` in
 * sync_runs and `pending` in the support index. Each candidate is judged on its own stream; the end is
 * appended at the revision judged, so a request still writing the run, or another worker ending it
 * first, wins and the run is left.
 */
import { Logger } from '@nestjs/common';
import { counted } from '../../../src/text/counted';
import { appendLinked } from '../../../src/command-handling/append-linked';
import { toEventToAppend } from '../../../src/command-handling/event-to-append';
import type { CommandContext } from '../../../src/command-handling/handle-command';
import { WrongExpectedVersion } from '../../../src/event-store/errors';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { importStream } from '../contact.events';
import { decideAbandon } from './abandon-push.decision';
import { foldPushRun } from './push-run';

const logger = new Logger('ContactSync');

export interface AbandonedPushSweep {
  /** How often a worker looks. */
  everyMs: number;
  /** Push runs that may be unfinished: the sync_runs read model's running push runs (contacts.feature.ts). */
  candidates: () => Promise<string[]>;
}

export interface SweepDeps {
  store: EventStore;
  metadata: CommandContext['metadata'];
}

/** The runs among `candidates` this call ended. */
export async function endAbandonedPushes({ store, metadata }: SweepDeps, candidates: string[], now: Date): Promise<string[]> {
  const ended: string[] = [];
  for (const runId of candidates) {
    const stream = importStream(runId);
    const decision = decideAbandon(runId, foldPushRun(await store.readStream(stream)), now);
    if (decision.kind !== 'end') continue;
    const event = toEventToAppend(stream, { event: decision.event, key: 'push/abandoned' }, metadata, now.toISOString());
    try {
      await appendLinked(store, stream, [event], decision.revision);
      ended.push(runId);
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion)) throw error;
    }
  }
  return ended;
}

export interface RunningSweep {
  stop(): Promise<void>;
}

export function sweepAbandonedPushes(deps: SweepDeps, sweep: AbandonedPushSweep): RunningSweep {
  let sweeping: Promise<void> | undefined;
  const timer = setInterval(() => {
    sweeping ??= sweep
      .candidates()
      .then((runIds) => endAbandonedPushes(deps, runIds, new Date()))
      .then((ended) => {
        if (ended.length)
          logger.warn(`ended ${counted(ended.length, 'push run')} their request abandoned without an Idempotency-Key: ${ended.join(', ')}`);
      })
      .catch((error: unknown) => logger.error(`ending abandoned push runs failed; trying again: ${(error as Error).message}`))
      .finally(() => (sweeping = undefined));
  }, sweep.everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await sweeping;
    },
  };
}
