/**
 * One contact as its stream states it: whether it exists (or was deleted), the freshness of the
 * record that last won, and the records applied under each source event id (so a re-sent event is a
 * `duplicate`, and an event id a source reused for other content is told apart from it). The freshness is kept for a deleted contact too: only a fresher record brings it back.
 * It is kept whole, as the event states it (version, updatedAt as the source's string with its full
 * fraction, checksum, event id): the freshness rule needs every part of it for its order and its ties.
 */
import type { ContactEvent, Freshness, ImportOutcome } from './contact.events';
import { KeyedHistory } from './keyed-history';

export interface ContactState {
  exists: boolean;
  deleted: boolean;
  fields: Record<string, unknown>;
  /** Freshness of the last applied record (undefined: no stream yet). */
  current?: Freshness;
  /** Revision of the last event (-1: no stream). */
  revision: number;
  /** The freshness of every record applied under each source event id (more than one when a source reused the id): `all(id)`. */
  appliedByEventId: KeyedHistory<Freshness>;
  /**
   * What each import step (`runId#seq`) that appended here became, and the record it appended: a run
   * resumed after a crash between its contact appends and its recorded outcomes meets its own appends
   * again, and answers with what they were (`imported`…), not `duplicate`, so that its counts match an
   * uninterrupted run — unless the source changed the record since (a pull page fetched again). `last(step)`.
   */
  appliedSteps: KeyedHistory<AppliedStep>;
}

export type AppliedOutcome = Extract<ImportOutcome, 'imported' | 'updated' | 'unchanged' | 'deleted'>;

/** One import step's append: what it became, and the record's freshness and kind as appended. */
export interface AppliedStep {
  outcome: AppliedOutcome;
  freshness: Freshness;
  deleted: boolean;
}

export const stepKey = (runId: string, seq: number) => `${runId}#${seq}`;

/** What appending `event` to a contact in `state` means for the record that caused it. */
export function changeOutcome(state: ContactState, event: ContactEvent): AppliedOutcome {
  if (!state.exists) return event.type === 'ContactDeleted' ? 'deleted' : 'imported';
  if (event.type === 'ContactDeleted') return state.deleted ? 'unchanged' : 'deleted';
  if (state.deleted) return 'updated';
  return event.data.checksum === state.current?.checksum ? 'unchanged' : 'updated';
}

export const initialContactState = (): ContactState => ({
  exists: false,
  deleted: false,
  fields: {},
  revision: -1,
  appliedByEventId: KeyedHistory.empty(),
  appliedSteps: KeyedHistory.empty(),
});

export function evolveContact(state: ContactState, event: ContactEvent): ContactState {
  const { sourceVersion, sourceUpdatedAt, checksum, sourceEventId } = event.data;
  const current: Freshness = { checksum };
  if (sourceVersion !== undefined) current.sourceVersion = sourceVersion;
  if (sourceUpdatedAt !== undefined) current.sourceUpdatedAt = sourceUpdatedAt;
  if (sourceEventId !== undefined) current.sourceEventId = sourceEventId;
  // Each grows by one entry (keyed-history.ts): the fold of a contact's history is linear in its length.
  const appliedByEventId = sourceEventId === undefined ? state.appliedByEventId : state.appliedByEventId.with(sourceEventId, current);
  const { runId, seq } = event.data;
  const deleted = event.type === 'ContactDeleted';
  const appliedSteps =
    runId === undefined || seq === undefined
      ? state.appliedSteps
      : state.appliedSteps.with(stepKey(runId, seq), { outcome: changeOutcome(state, event), freshness: current, deleted });
  return {
    exists: true,
    deleted,
    fields: deleted ? {} : event.data.fields,
    current,
    revision: state.revision + 1,
    appliedByEventId,
    appliedSteps,
  };
}
