/**
 * The api over a sandbox CRM with the `sync_runs` read model projected, as the sync-runs specs drive it:
 * runs are started over HTTP or the CLI and read back from the read model.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { idemFeatures } from '../../src/app.module';
import { createHttpApp } from '../../src/bootstrap/http-app';
import { openReadModels } from '../../src/bootstrap/read-models';
import { startProjections } from '../../src/subscriptions/start-projections';
import { syncRunsReadModel } from '../../projections/sync-runs/sync-runs.projector';
import { startTestApp, type TestApp } from './test-app';
import { createSandbox, type Sandbox } from '../../modules/sandbox';
import { contactSourcesAt } from '../../modules/contacts/contact-source/configured-sources';

export interface SyncRunsApp {
  harness: TestApp;
  crm: Sandbox;
  app: NestFastifyApplication;
  close(): Promise<void>;
}

export async function startSyncRunsApp(database: string, crmOptions: { seed: number; size: number }): Promise<SyncRunsApp> {
  const harness = await startTestApp(database);
  const crm = await createSandbox({ crm: crmOptions });
  const features = idemFeatures({ paymentGateway: () => harness.gateway, contactSources: () => contactSourcesAt(crm.url) });
  const readModels = await openReadModels(harness.runtime, features, 1);
  const app = await createHttpApp(harness.runtime, { features, readModels }, { logger: false });
  await app.getHttpAdapter().getInstance().ready();
  const { eventStore: store, pool } = harness.runtime;
  const projections = await startProjections({ store, pool, readModels: [syncRunsReadModel], reactors: [] });
  return {
    harness,
    crm,
    app,
    close: async () => {
      await projections.stop();
      await app.close();
      await readModels.close();
      await crm.close();
      await harness.close();
    },
  };
}
