/**
 * For the specs of summarized import runs (run-folds.ts: summarizedRun): a process that never loaded a
 * run, counting the events it reads, and the oracle a summary must equal, the fold of the run's whole
 * stream with nothing kept or summarized.
 */
import type { Pool } from 'pg';
import { importStream, type ImportEvent } from '../../modules/contacts/contact.events';
import { evolveImportRun, initialImportRunState, type ImportRunState } from '../../modules/contacts/import-run.state';
import type { EventStore, ReadStreamOptions } from '../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';

/** A store object of its own (loaded runs are kept per store object), and the events read through it so far. */
export function freshProcess(pool: Pool): { store: EventStore; reads: number[]; read: () => number } {
  const reads: number[] = [];
  const fresh = new PostgresEventStore(pool);
  const counting: EventStore = Object.create(fresh, {
    readStream: {
      value: async (stream: string, options?: ReadStreamOptions) => {
        const events = await fresh.readStream(stream, options);
        reads.push(events.length);
        return events;
      },
    },
  }) as EventStore;
  return { store: counting, reads, read: () => reads.reduce((a, b) => a + b, 0) };
}

/** The run as a fold of its whole stream, event by event. */
export async function wholeFold(pool: Pool, runId: string): Promise<ImportRunState> {
  const events = await new PostgresEventStore(pool).readStream(importStream(runId));
  return events.reduce(
    (run, e) => evolveImportRun(run, e as unknown as ImportEvent & { metadata: { recordedAt: string } }),
    initialImportRunState(),
  );
}
