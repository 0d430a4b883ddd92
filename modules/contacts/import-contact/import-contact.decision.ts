/**
 * ImportContact: one valid source record meets the contact's stream. The outcome follows from the
 * freshness rule (freshness.ts) alone, never from arrival order where the source gives an order:
 * - no stream yet: `imported` (or `deleted`: a first-seen delete is kept, so that an older update
 *   arriving later is stale instead of bringing the contact to life);
 * - a source event id already applied with the same version, updatedAt and checksum: `duplicate` (a
 *   redelivery). The same id with other content is judged by the freshness rule like any record, its
 *   reason saying the id was reused: were it a `duplicate`, the contact would keep whichever of the two
 *   arrived first (DESIGN.md §9 invariant 5);
 * - older than the stored record: `skipped_stale` (nothing appended; the reason says what it lost to);
 * - same version, other content: `conflict` (nothing appended; contradictory source data);
 * - the same record: `unchanged` (nothing appended);
 * - fresher: `updated` / `deleted`, or `unchanged` when the content is the same — that still appends,
 *   because the stored freshness must advance: were v6 with v5's checksum dropped, a later v5' with
 *   other content would be judged against v5 and win.
 */
import type { Decider, NewEvent } from '../../../src/command-handling/decider';
import type { ContactEvent, Freshness, ImportOutcome } from '../contact.events';
import { changeOutcome, evolveContact, initialContactState, stepKey, type AppliedStep, type ContactState } from '../contact.state';
import { checksumOf, type ContactRecord } from './contact-record';
import { compareFreshness, describeFreshness } from './freshness';
import { compareIsoDateTimes } from './iso-date-time';

export interface ImportContact {
  source: string;
  record: ContactRecord;
  /** The import it belongs to and its place there: part of the event, so two imports never share an event id. */
  runId: string;
  seq: number;
}

export interface ContactVerdict {
  outcome: Exclude<ImportOutcome, 'rejected'>;
  event?: ContactEvent;
  reason?: string;
}

export function freshnessOf(record: ContactRecord): Freshness {
  const f: Freshness = { checksum: checksumOf(record) };
  if (record.version !== undefined) f.sourceVersion = record.version;
  if (record.updatedAt !== undefined) f.sourceUpdatedAt = record.updatedAt;
  if (record.eventId !== undefined) f.sourceEventId = record.eventId;
  return f;
}

export function judgeContact(command: ImportContact, state: ContactState): ContactVerdict {
  const { record } = command;
  const incoming = freshnessOf(record);
  if (!state.exists || !state.current) return { outcome: record.deleted ? 'deleted' : 'imported', event: eventFor(command, incoming) };
  const own = state.appliedSteps.last(stepKey(command.runId, command.seq));
  if (own) return judgeOwnStepAgain(command, incoming, own, state, state.current);
  const applied = record.eventId === undefined ? undefined : state.appliedByEventId.all(record.eventId);
  if (applied?.some((earlier) => sameDelivery(incoming, earlier))) {
    return { outcome: 'duplicate', reason: `source event ${record.eventId} is already applied` };
  }
  const verdict = judgeByFreshness(command, incoming, state, state.current);
  if (!applied) return verdict;
  const reused = `source event ${record.eventId} was reused with different content (applied as ${describeFreshness(applied.at(-1)!)})`;
  return { ...verdict, reason: verdict.reason ? `${reused}; ${verdict.reason}` : reused };
}

/**
 * This import's own step met again: its driver stopped between the contact's append and the record's
 * outcome, and the step is taken again. The same record answers what that append was, so the run counts
 * as an uninterrupted one. A pull run fetches its page again, though, and a live CRM may have edited the
 * record meanwhile: a fresher record is applied (it used to be answered as the first append, the edit
 * dropped while the run's audit named the fresher version), answered with what the step as a whole did
 * (a contact the step brought in is still `imported`). A record no fresher than what the contact holds
 * now leaves the step's append as it is.
 */
function judgeOwnStepAgain(
  command: ImportContact,
  incoming: Freshness,
  own: AppliedStep,
  state: ContactState,
  current: Freshness,
): ContactVerdict {
  const again: ContactVerdict = { outcome: own.outcome, reason: 'recorded by this import before it was interrupted' };
  const sameRecord = sameDelivery(incoming, own.freshness) && own.deleted === (command.record.deleted === true);
  if (sameRecord || compareFreshness(incoming, current) !== 'fresher') return again;
  const event = eventFor(command, incoming);
  const kept =
    (own.outcome === 'imported' && event.type === 'ContactImported') || (own.outcome === 'deleted' && event.type === 'ContactDeleted');
  return {
    outcome: kept ? own.outcome : changeOutcome(state, event),
    event,
    reason: `the source changed the record after this import first appended it (as ${describeFreshness(own.freshness)}): the fresher one is applied`,
  };
}

/** The same record delivered again: the same version, updatedAt and content (its event id is the same by lookup). */
const sameDelivery = (incoming: Freshness, applied: Freshness) =>
  incoming.sourceVersion === applied.sourceVersion &&
  sameTime(incoming.sourceUpdatedAt, applied.sourceUpdatedAt) &&
  incoming.checksum === applied.checksum;

const sameTime = (a: string | undefined, b: string | undefined) =>
  a === undefined || b === undefined ? a === b : compareIsoDateTimes(a, b) === 0;

function judgeByFreshness(command: ImportContact, incoming: Freshness, state: ContactState, current: Freshness): ContactVerdict {
  const { record } = command;
  const stored = `${describeFreshness(current)} (revision ${state.revision})`;
  switch (compareFreshness(incoming, current)) {
    case 'older':
      return { outcome: 'skipped_stale', reason: `lost to ${stored}` };
    case 'conflict':
      return { outcome: 'conflict', reason: `version ${incoming.sourceVersion} was already recorded with other content: ${stored}` };
    case 'same':
      return { outcome: 'unchanged' };
    case 'fresher': {
      const event = eventFor(command, incoming);
      const outcome = changeOutcome(state, event);
      return state.deleted && !record.deleted
        ? { outcome, event, reason: 'a fresher record brings the deleted contact back' }
        : { outcome, event };
    }
  }
}

function eventFor({ source, record, runId, seq }: ImportContact, freshness: Freshness): ContactEvent {
  const base = { source, sourceId: record.sourceId, ...freshness, runId, seq };
  return record.deleted
    ? { type: 'ContactDeleted', data: base }
    : { type: 'ContactImported', data: { ...base, fields: record.fields ?? {} } };
}

/** The events a verdict appends, keyed by the import and the record's place in it. */
export function toNewEvents(command: ImportContact, { event }: ContactVerdict): NewEvent<ContactEvent>[] {
  return event ? [{ event, key: `contact/${command.runId}/${command.seq}` }] : [];
}

export const decideImportContact = (command: ImportContact, state: ContactState) => toNewEvents(command, judgeContact(command, state));

export const importContactDecider: Decider<ImportContact, ContactState, ContactEvent> = {
  initialState: initialContactState,
  evolve: evolveContact,
  decide: decideImportContact,
};
