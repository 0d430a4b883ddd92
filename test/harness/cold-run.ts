/**
 * For the specs of import runs loaded cold (run-folds.ts: stateAtLastTotals): a process that never
 * loaded a run, counting the events it reads, and the oracle a cold load must equal, the fold of the
 * run's whole stream with nothing kept or summarized.
 */
import type { Pool } from 'pg';
import type { ContactSource } from '../../modules/contacts/contact-source/contact-source.port';
import { importStream, type ImportEvent } from '../../modules/contacts/contact.events';
import { evolveImportRun, initialImportRunState, type ImportRunState } from '../../modules/contacts/import-run.state';
import type { EventStore, ReadStreamOptions } from '../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';

/** One readStream call of a counting store: which stream, how many events it asked for and got. */
export interface CountedRead {
  stream: string;
  maxCount?: number;
  events: number;
}

/**
 * A store object of its own (loaded runs are kept per store object), and the events read through it so
 * far: `read()` counts every stream's, `read(stream)` one stream's (a run's, not its contacts').
 */
export function freshProcess(pool: Pool): { store: EventStore; reads: CountedRead[]; read: (stream?: string) => number } {
  const reads: CountedRead[] = [];
  const fresh = new PostgresEventStore(pool);
  const counting: EventStore = Object.create(fresh, {
    readStream: {
      value: async (stream: string, options?: ReadStreamOptions) => {
        const events = await fresh.readStream(stream, options);
        reads.push({ stream, maxCount: options?.maxCount, events: events.length });
        return events;
      },
    },
  }) as EventStore;
  const read = (stream?: string) => reads.filter((r) => stream === undefined || r.stream === stream).reduce((a, r) => a + r.events, 0);
  return { store: counting, reads, read };
}

/** The run as a fold of its whole stream, event by event. */
export async function wholeFold(pool: Pool, runId: string): Promise<ImportRunState> {
  const events = await new PostgresEventStore(pool).readStream(importStream(runId));
  return events.reduce(
    (run, e) => evolveImportRun(run, e as unknown as ImportEvent & { metadata: { recordedAt: string } }),
    initialImportRunState(),
  );
}

/** A source named `crm` serving `records` in pages of `pageSize`, the cursor being the next record's index. */
export function listSource(records: unknown[], pageSize: number): ContactSource {
  return {
    name: 'crm',
    fetchPage: ({ cursor }) => {
      const from = Number(cursor ?? 0);
      const next = from + pageSize;
      return Promise.resolve({ records: records.slice(from, next), nextCursor: next < records.length ? String(next) : null });
    },
  };
}
