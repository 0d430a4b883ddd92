/**
 * Imports a batch of checked records through the one command path. Every contact is its own
 * `handleCommand` (read, judge, append with the expectation from the read), and all of them start in
 * the same turn of the event loop, so the PostgreSQL store reads their streams with one statement and
 * writes their single-event appends in grouped statements (per-turn-batcher.ts) instead of one round
 * trip per record. Records of one contact inside a batch go one after the other, in batch order, so
 * a batch never races itself; a concurrent import of the same contact loses the append, re-reads and
 * is judged again (one revision, the other answer `duplicate`/`unchanged`).
 *
 * A record the store cannot take is answered on its own and never fails its batch: every record's
 * command settles before the batch answers, so a batch is never left half-written behind an error.
 */
import type { CommandContext } from '../../../src/command-handling/handle-command';
import { commandHandler, type LoadedStream } from '../../../src/command-handling/command-handler';
import { InvalidAppend, StreamDeleted, WrongExpectedVersion } from '../../../src/event-store/errors';
import type { EventStore } from '../../../src/event-store/event-store.port';
import type { ImportOutcome } from '../contact.events';
import { contactStream } from '../contact.events';
import type { ContactRecord } from '../import-contact/contact-record';
import type { BatchItem } from './import-request';
import { boundedReason } from '../import-run.audit';
import type { ContactState } from '../contact.state';
import {
  importContactDecider,
  judgeContact,
  toNewEvents,
  type ContactVerdict,
  type ImportContact,
} from '../import-contact/import-contact.decision';

export interface RecordResult {
  seq: number;
  sourceId: string | null;
  /** A rejected record's key as sent, when it was a string but no valid key (bounded as a reason is). */
  sentSourceId?: string;
  outcome: ImportOutcome;
  /** The contact stream's revision after the record; null when the record never reached one. */
  revision: number | null;
  reason?: string;
  record?: ContactRecord;
  /**
   * The store failed (not refused) the record's append, e.g. a lost connection: the record is answered
   * `rejected` with a "send it again" reason, and a run (pull page, file slice) re-imports it instead.
   */
  storeFailure?: unknown;
}

/** Imports the valid items; the invalid ones are answered `rejected` with their problems. In seq order. */
export async function importItems(
  store: EventStore,
  source: string,
  runId: string,
  items: BatchItem[],
  metadata: CommandContext['metadata'],
): Promise<RecordResult[]> {
  const valid = items.flatMap((item) => (item.ok ? [{ seq: item.seq, record: item.record }] : []));
  const rejected = items.flatMap((item): RecordResult[] =>
    item.ok
      ? []
      : [
          {
            seq: item.seq,
            sourceId: item.sourceId,
            ...(item.sentSourceId !== undefined ? { sentSourceId: boundedReason(item.sentSourceId) } : {}),
            outcome: 'rejected',
            revision: null,
            reason: boundedReason(item.problems.join('; ')),
          },
        ],
  );
  return [...(await importRecords(store, source, runId, valid, metadata)), ...rejected].sort((a, b) => a.seq - b.seq);
}

/** A concurrent writer per contact is rare; a few re-reads settle it. */
const MAX_ATTEMPTS = 10;

export async function importRecords(
  store: EventStore,
  source: string,
  runId: string,
  items: Array<{ seq: number; record: ContactRecord }>,
  metadata: CommandContext['metadata'],
): Promise<RecordResult[]> {
  const byContact = new Map<string, Array<{ seq: number; record: ContactRecord }>>();
  for (const item of items) byContact.set(item.record.sourceId, [...(byContact.get(item.record.sourceId) ?? []), item]);
  const results: RecordResult[] = [];
  await Promise.all(
    [...byContact.values()].map(async (sameContact) => {
      // The contact as its previous record in this batch left it: the next record is judged on it and
      // appended at exactly its revision, instead of reading the whole stream again for every record
      // (a batch of 1,000 versions of one contact read 500,000 events and took about 30 s).
      let after: LoadedStream<ContactState> | undefined;
      for (const { seq, record } of sameContact) {
        const imported = await importOne(store, { source, record, runId, seq }, metadata, after);
        results.push(imported.result);
        after = imported.after;
      }
    }),
  );
  return results.sort((a, b) => a.seq - b.seq);
}

async function importOne(
  store: EventStore,
  command: ImportContact,
  metadata: CommandContext['metadata'],
  from: LoadedStream<ContactState> | undefined,
): Promise<{ result: RecordResult; after?: LoadedStream<ContactState> }> {
  // The verdict of the attempt that counted (a conflict re-reads and judges again).
  let verdict: ContactVerdict | undefined;
  const decide = (state: ContactState) => toNewEvents(command, (verdict = judgeContact(command, state)));
  const handler = commandHandler(importContactDecider);
  const stream = contactStream(command.source, command.record.sourceId);
  const answer = { seq: command.seq, sourceId: command.record.sourceId, record: command.record };
  try {
    // A concurrent writer of the contact since `from` makes that append conflict: then read and judge again.
    const outcome =
      (from && (await handler.handle(store, stream, decide, { metadata, from }).catch(unlessConflict))) ||
      (await handler.handle(store, stream, decide, { metadata, maxAttempts: MAX_ATTEMPTS }));
    const { outcome: recorded, reason } = verdict!;
    return {
      result: { ...answer, outcome: recorded, revision: outcome.revision, ...(reason ? { reason } : {}) },
      after: { state: outcome.state, revision: outcome.revision },
    };
  } catch (error) {
    return { result: { ...answer, outcome: 'rejected', revision: null, ...notStored(error) } };
  }
}

const unlessConflict = (error: unknown): undefined => {
  if (error instanceof WrongExpectedVersion) return undefined;
  throw error;
};

/**
 * Why a record's append did not happen: refused for good (too large for the store's limit, or its
 * contact's stream deleted outside Idem: an EventStoreDB tombstone refuses every append, whatever is
 * retried) or failed for now. Refused, the record is answered `rejected` and its run goes on; a deleted
 * stream stopped a whole pull run as needs_review, the records after it never imported.
 */
function notStored(error: unknown): Pick<RecordResult, 'reason' | 'storeFailure'> {
  const message = boundedReason(error instanceof Error ? error.message : String(error));
  if (error instanceof StreamDeleted)
    return { reason: `the contact's stream was deleted from the event store outside Idem, and it takes no more events (${message})` };
  if (error instanceof InvalidAppend && error.code === 'EVENT_STORE.INVALID_EVENT_TOO_LARGE')
    return { reason: `the record is too large to store (${message})` };
  if (error instanceof InvalidAppend) return { reason: `the store refuses the record (${message})` };
  return { reason: `the record could not be stored (${message}); send it again`, storeFailure: error };
}

/** A run records a page only when every record of it was stored or refused: a store failure fails the page, which is imported again. */
export function throwIfNotStored(results: RecordResult[]): void {
  const failed = results.find((result) => result.storeFailure !== undefined);
  if (failed) throw failed.storeFailure;
}
