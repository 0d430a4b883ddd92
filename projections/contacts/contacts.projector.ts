/**
 * `contacts`: the record as its stream last stated it. Which version wins is decided when the import
 * appends (DESIGN.md §9.5: a stale version is never appended), so the fold simply takes the latest;
 * `ContactDeleted` removes the row (a deleted contact is gone from GET until a fresher record).
 */
import { CONTACT_CATEGORY, type ContactEvent } from '../../modules/contacts/contact.events';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { eventTime } from '../../src/subscriptions/read-models/event-time';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { ContactRow } from './contacts.entity';
import { storableInstant } from './storable-instant';

const CONTACT_EVENT_TYPES = ['ContactImported', 'ContactDeleted'];

export function evolveContactRow(row: ContactRow | undefined, event: RecordedEvent): ContactRow | undefined {
  if (!CONTACT_EVENT_TYPES.includes(event.type) || (row && event.revision <= row.revision)) return row;
  const { type, data } = event as unknown as ContactEvent;
  if (type === 'ContactDeleted') return undefined;
  return {
    source: data.source,
    sourceId: data.sourceId,
    version: data.sourceVersion ?? null,
    // Milliseconds only (see the entity); the event keeps the source's spelling, which is what is compared.
    // Null for a time the column cannot hold, written before the import refused it (storable-instant.ts).
    updatedAt: storableInstant(data.sourceUpdatedAt),
    checksum: data.checksum,
    sourceEventId: data.sourceEventId ?? null,
    fields: data.fields,
    revision: event.revision,
    recordedAt: eventTime(event),
  };
}

export const contactsReadModel: ReadModel<ContactRow> = {
  name: 'contacts',
  entity: ContactRow,
  filter: { streamCategories: [CONTACT_CATEGORY], eventTypes: CONTACT_EVENT_TYPES },
  keyOf: (event) => {
    if (!CONTACT_EVENT_TYPES.includes(event.type)) return undefined;
    const { source, sourceId } = event.data as ContactEvent['data'];
    return { source, sourceId };
  },
  evolve: evolveContactRow,
};
