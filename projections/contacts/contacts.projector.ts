/**
 * `contacts`: the record as its stream last stated it. Which version wins is decided when the import
 * appends (DESIGN.md §9.5: a stale version is never appended), so the fold simply takes the latest.
 */
import { CONTACT_CATEGORY, type ContactImported } from '../../modules/contacts/contact.events';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { eventTime } from '../../src/subscriptions/read-models/event-time';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { ContactRow } from './contacts.entity';

export function evolveContact(row: ContactRow | undefined, event: RecordedEvent): ContactRow | undefined {
  if (event.type !== 'ContactImported' || (row && event.revision <= row.revision)) return row;
  const data = event.data as ContactImported['data'];
  return {
    source: data.source,
    sourceId: data.sourceId,
    version: data.sourceVersion,
    updatedAt: new Date(data.sourceUpdatedAt),
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
  filter: { streamCategories: [CONTACT_CATEGORY], eventTypes: ['ContactImported'] },
  keyOf: (event) => {
    if (event.type !== 'ContactImported') return undefined;
    const { source, sourceId } = event.data as ContactImported['data'];
    return { source, sourceId };
  },
  evolve: evolveContact,
};
