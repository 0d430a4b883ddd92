/**
 * Everything contacts (sync) adds to Idem (see src/features/feature.ts): the import, contact and
 * sync-run routes; the contacts, import_events and sync_runs read models; on each worker, the
 * resumption of pull runs whose driver died with its process and the end of push runs no request can
 * finish any more (contacts.core.ts: the read models and their migration). `idem sync` comes through
 * contacts.cli.ts.
 */
import { contactsReadModel } from '../../projections/contacts/contacts.projector';
import { runningPullRuns, runningPullRunsAt, runningPushRuns } from '../../projections/sync-runs/sync-runs.queries';
import type { IdemConfig } from '../../src/config/config';
import type { Feature } from '../../src/features/feature';
import { configuredContactSources, crmUrlOf } from './contact-source/configured-sources';
import type { ContactSources } from './contact-source/contact-source.port';
import { contactsCore } from './contacts.core';
import { ContactsModule } from './contacts.module';
import { sweepAbandonedPushes } from './import-contacts/end-abandoned-pushes';
import { DEFAULT_ORPHAN_SWEEP, resumeUnfinishedRuns } from './pull-run/resume-runs';
import { runLocksOn } from './pull-run/run-lock';

/** The contacts read model's lane (Feature.projectionLanes); the feature's other read models ride the default lane. */
export const CONTACTS_LANE = 'contacts';

export interface ContactsPorts {
  /** Where pull runs read contacts (default: the CRM at IDEM_CRM_URL, in development the sandbox's; configured-sources.ts). */
  sources?: (config: IdemConfig) => ContactSources;
}

export function contactsFeature({ sources = configuredContactSources }: ContactsPorts = {}): Feature {
  return {
    ...contactsCore,
    module: ContactsModule.withSources(sources),
    // The contacts read model is what a pushed or pulled contact is read from (GET /v1/contacts/…). In
    // the default lane it committed each batch only once import_events and the audit chain had theirs
    // (two events and hash links per record to their one), and fell ~12 s behind a 135,000-record push
    // that was answered in 29 s; in a lane of its own it keeps up with the answers, while the others
    // finish their share after (docs/BENCHMARKS.md, bench:import).
    projectionLanes: { [contactsReadModel.name]: CONTACTS_LANE },
    services: [
      // Import runs whose driver died with its process go on from their last recorded page.
      ({ config, store, pool, workerId }) => {
        const metadata = { correlationId: workerId, causationId: workerId, actor: { role: 'worker', tokenId: workerId } };
        const sweep = { ...DEFAULT_ORPHAN_SWEEP, candidates: () => runningPullRuns(pool), knownAtStart: () => runningPullRunsAt(pool) };
        return resumeUnfinishedRuns({ store, sources: sources(config), metadata, locks: runLocksOn(pool) }, sweep);
      },
      // Push runs a request without an Idempotency-Key left unfinished end, failed, with the reason.
      ({ store, pool, workerId }) => {
        const metadata = { correlationId: workerId, causationId: workerId, actor: { role: 'worker', tokenId: workerId } };
        return Promise.resolve(sweepAbandonedPushes({ store, metadata }, { everyMs: 60_000, candidates: () => runningPushRuns(pool) }));
      },
    ],
    // `idem sync` pulls from the CRM itself: started elsewhere, it cannot know this process's sandbox
    // port (a free one near IDEM_SANDBOX_PORT), and would page through another CRM, or none.
    cliEnvironment: (config): Record<string, string> => {
      const crmUrl = crmUrlOf(config);
      return crmUrl ? { IDEM_CRM_URL: crmUrl } : {};
    },
  };
}
