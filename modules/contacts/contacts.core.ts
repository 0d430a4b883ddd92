/**
 * What every process takes of contacts (src/features/feature.ts, FeatureCore): the contacts,
 * import_events and sync_runs read models, and sync_runs' column migration (sync-runs.migration.ts).
 * Apart from contacts.feature.ts, so that `idem` loads it without the routes and the run services.
 */
import { contactsReadModel } from '../../projections/contacts/contacts.projector';
import { importEventsReadModel } from '../../projections/import-events/import-events.projector';
import { addSourceIdentityColumn } from '../../projections/sync-runs/sync-runs.migration';
import { syncRunsReadModel } from '../../projections/sync-runs/sync-runs.projector';
import type { FeatureCore } from '../../src/features/feature';

export const contactsCore: FeatureCore = {
  name: 'contacts',
  readModels: [contactsReadModel, importEventsReadModel, syncRunsReadModel],
  migrate: addSourceIdentityColumn,
};
