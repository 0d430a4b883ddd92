/**
 * One contact as its stream states it: whether it exists (or was deleted), the freshness of the
 * record that last won, and which source event ids have already been applied (so a re-sent event is
 * a `duplicate`). The freshness is kept for a deleted contact too: only a fresher record brings it back.
 */
import type { ContactEvent, Freshness } from './contact.events';

export interface ContactState {
  exists: boolean;
  deleted: boolean;
  fields: Record<string, unknown>;
  /** Freshness of the last applied record (undefined: no stream yet). */
  current?: Freshness;
  /** Revision of the last event (-1: no stream). */
  revision: number;
  appliedEventIds: ReadonlySet<string>;
}

export const initialContactState = (): ContactState => ({ exists: false, deleted: false, fields: {}, revision: -1, appliedEventIds: new Set() });

export function evolveContact(state: ContactState, event: ContactEvent): ContactState {
  const { sourceVersion, sourceUpdatedAt, checksum, sourceEventId } = event.data;
  const current: Freshness = { checksum };
  if (sourceVersion !== undefined) current.sourceVersion = sourceVersion;
  if (sourceUpdatedAt !== undefined) current.sourceUpdatedAt = sourceUpdatedAt;
  if (sourceEventId !== undefined) current.sourceEventId = sourceEventId;
  const appliedEventIds = sourceEventId === undefined ? state.appliedEventIds : new Set([...state.appliedEventIds, sourceEventId]);
  const deleted = event.type === 'ContactDeleted';
  return { exists: true, deleted, fields: deleted ? {} : event.data.fields, current, revision: state.revision + 1, appliedEventIds };
}
