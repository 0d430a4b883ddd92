/** `import_events`: one row per (run, record) from `ImportRecordProcessed`. */
import { IMPORT_CATEGORY, type ImportRecordProcessed } from '../../modules/contacts/contact.events';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { eventTime } from '../../src/subscriptions/read-models/event-time';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { ImportEventRow } from './import-events.entity';
import { storableInstant } from '../contacts/storable-instant';

export function evolveImportEvent(row: ImportEventRow | undefined, event: RecordedEvent): ImportEventRow | undefined {
  if (event.type !== 'ImportRecordProcessed' || (row && event.revision <= row.revision)) return row;
  const data = event.data as ImportRecordProcessed['data'];
  return {
    runId: data.runId,
    seq: data.seq,
    source: data.source,
    sourceId: data.sourceId,
    eventId: data.eventId ?? null,
    sourceVersion: data.sourceVersion ?? null,
    // Null for a time the column cannot hold, written before the import refused it (storable-instant.ts).
    sourceUpdatedAt: storableInstant(data.sourceUpdatedAt),
    checksum: data.checksum ?? null,
    outcome: data.outcome,
    reason: data.reason ?? null,
    contactRevision: data.revision,
    revision: event.revision,
    recordedAt: eventTime(event),
  };
}

export const importEventsReadModel: ReadModel<ImportEventRow> = {
  name: 'import_events',
  entity: ImportEventRow,
  filter: { streamCategories: [IMPORT_CATEGORY], eventTypes: ['ImportRecordProcessed'] },
  keyOf: (event) => {
    if (event.type !== 'ImportRecordProcessed') return undefined;
    const { runId, seq } = event.data as ImportRecordProcessed['data'];
    return { runId, seq };
  },
  evolve: evolveImportEvent,
};
