/**
 * Publishes the seals the audit_chain projector recorded (audit_seals) as `LedgerSealed` events in
 * `seal-ledger`, in order, each once. The stream itself says how far publishing got: its last event
 * names the last seal published, so a crashed or repeated run carries on where the stream ends. Every
 * append goes through appendLinked at exactly the revision just read: of two runs racing, one appends
 * and the other is refused with WrongExpectedVersion, re-reads, and finds the seals already there.
 */
import type { Task } from 'graphile-worker';
import type { Pool } from 'pg';
import { appendLinked } from '../../../src/command-handling/append-linked';
import { deterministicEventId } from '../../../src/command-handling/deterministic-event-id';
import type { CommandMetadata } from '../../../src/command-handling/event-to-append';
import { WrongExpectedVersion } from '../../../src/event-store/errors';
import type { EventStore, EventToAppend } from '../../../src/event-store/event-store.port';
import { readSealsAfter } from '../../../projections/audit-chain/audit-chain.queries';
import type { Seal } from '../../../projections/audit-chain/audit-chain.projector';
import { SEAL_STREAM, type LedgerSealed } from '../ledger-sealed.events';

export interface PublishSealsDeps {
  store: EventStore;
  pool: Pool;
  workerId: string;
}

/** Seals per append: a long backlog (seals recorded before publishing existed) goes out in several. */
const BATCH = 100;
const MAX_CONFLICTS = 5;

/** Appends every recorded seal the stream does not hold yet; returns how many it appended. */
export async function publishSeals(deps: PublishSealsDeps, causationId = 'publish-ledger-seals'): Promise<number> {
  let published = 0;
  /** The last seal the previous round appended: the stream must read at least that far now. */
  let appendedUpTo = 0;
  for (let conflicts = 0; ;) {
    const [last] = await deps.store.readStream(SEAL_STREAM, { direction: 'backwards', maxCount: 1 });
    const after = last ? (last.data as LedgerSealed['data']).eventsSealed : 0;
    if (after < appendedUpTo) throw new SealStreamStuck(after, appendedUpTo);
    const seals = await readSealsAfter(deps.pool, after, BATCH);
    if (!seals.length) return published;
    const metadata: CommandMetadata = { correlationId: SEAL_STREAM, causationId, actor: { role: 'worker', tokenId: deps.workerId } };
    try {
      await appendLinked(
        deps.store,
        SEAL_STREAM,
        seals.map((seal) => ledgerSealed(seal, metadata)),
        last?.revision ?? 'no_stream',
        last,
      );
      published += seals.length;
      appendedUpTo = seals[seals.length - 1].eventsSealed;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion) || ++conflicts >= MAX_CONFLICTS) throw error;
    }
  }
}

/**
 * An append the store accepted did not show in the stream. On EventStoreDB that is a soft-deleted
 * `seal-ledger`: it reads as empty while its events remain, so the server takes every re-append of
 * the same deterministic ids for a retry and answers "written" without writing. Publishing cannot
 * make progress until someone looks (verify reports the stream `missing`); the job fails and says so.
 */
export class SealStreamStuck extends Error {
  constructor(readsUpTo: number, appendedUpTo: number) {
    super(
      `${SEAL_STREAM} did not advance: it reads up to the seal after event ${readsUpTo} although the seal after event ` +
        `${appendedUpTo} was just appended (was ${SEAL_STREAM} deleted in the event store?)`,
    );
    this.name = 'SealStreamStuck';
  }
}

/**
 * The job queue logs each run's completion at info already ("Completed task 7 (publish-ledger-seals,
 * 9 ms)"), and a bulk import records a seal, and so queues a run, every few hundred events: a line of
 * our own at info made two lines per seal. How many seals a run published is for debugging.
 */
export function publishSealsTask(deps: PublishSealsDeps): Task {
  return async (_payload, helpers) => {
    const published = await publishSeals(deps, `job:${helpers.job.id}`);
    if (published) helpers.logger.debug(`published ${published} seal(s) to ${SEAL_STREAM}`);
  };
}

function ledgerSealed({ position, eventsSealed, digest }: Seal, metadata: CommandMetadata): EventToAppend {
  const event: LedgerSealed = { type: 'LedgerSealed', data: { position, eventsSealed, digest } };
  return {
    id: deterministicEventId(SEAL_STREAM, `ledger-sealed/${eventsSealed}`, event),
    type: event.type,
    data: event.data,
    metadata: { ...metadata, recordedAt: new Date().toISOString() },
  };
}
