import type { Freshness } from './contact.events';
import type { ContactState } from './contact.state';

/** GET /v1/contacts/{source}/{sourceId}: the contact as last imported. */
export interface ContactView {
  source: string;
  sourceId: string;
  version?: number;
  updatedAt?: string;
  checksum: string;
  sourceEventId?: string;
  fields: Record<string, unknown>;
  /** Revision of the contact's stream this view reflects. */
  revision: number;
}

export function toContactView(source: string, sourceId: string, state: ContactState & { current: Freshness }): ContactView {
  const { sourceVersion, sourceUpdatedAt, checksum, sourceEventId } = state.current;
  return {
    source,
    sourceId,
    ...(sourceVersion !== undefined ? { version: sourceVersion } : {}),
    ...(sourceUpdatedAt !== undefined ? { updatedAt: sourceUpdatedAt } : {}),
    checksum,
    ...(sourceEventId !== undefined ? { sourceEventId } : {}),
    fields: state.fields,
    revision: state.revision,
  };
}
