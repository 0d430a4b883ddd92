/**
 * A pull run started over HTTP is driven by the api process; when the api shuts down, its driver stops
 * at the page in flight before the database pool closes (it used to go on appending into a closed
 * pool and log an error), and the run stays `running` for a worker to take over.
 */
import { idemFeatures } from '../../../src/app.module';
import { createHttpApp } from '../../../src/bootstrap/http-app';
import { openReadModels, type ReadModels } from '../../../src/bootstrap/read-models';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { waitUntil } from '../../../test/harness/wait-until';
import { createSandbox, type Sandbox } from '../../sandbox';
import { contactSourcesAt } from '../contact-source/configured-sources';
import { loadRun } from '../pull-run/drive-run';
import { ApiRunDrivers } from './api-run-drivers';

let harness: TestApp;
let crm: Sandbox;
let readModels: ReadModels;
beforeAll(async () => {
  harness = await startTestApp('api_run_drivers');
  crm = await createSandbox({ crm: { seed: 5, size: 300 } });
});
afterAll(async () => {
  await readModels?.close();
  await crm.close();
  await harness.close();
});

const crmControl = (method: string, path: string, body?: unknown) =>
  fetch(`${crm.url}${path}`, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
const pageOneRequests = async () =>
  ((await (await crmControl('GET', '/crm/_control/requests')).json()) as { byPage: Record<string, number> }).byPage['1'] ?? 0;

it('stops the runs it drives when the application closes, leaving them running', async () => {
  const features = idemFeatures({ paymentGateway: () => harness.gateway, contactSources: () => contactSourcesAt(crm.url) });
  readModels = await openReadModels(harness.runtime, features, 1);
  const app = await createHttpApp(harness.runtime, { features, readModels }, { logger: false });
  await app.getHttpAdapter().getInstance().ready();
  // The first page takes a minute to come: the run is surely mid-page when the api closes.
  await crmControl('POST', '/crm/_control/faults', { page: 1, kind: 'latency', ms: 60_000 });
  const started = await app.inject({ method: 'POST', url: '/v1/sync/runs', headers: auth('sync'), payload: { source: 'crm' } });
  expect(started.statusCode).toBe(202);
  const { runId } = started.json();
  const drivers = app.get(ApiRunDrivers);
  expect(drivers.driving).toBe(1);
  await waitUntil(pageOneRequests, (requests) => requests >= 1, 10_000);

  const closing = Date.now();
  await app.close();

  expect(drivers.driving).toBe(0);
  expect(Date.now() - closing).toBeLessThan(30_000);
  expect(await loadRun(harness.runtime.eventStore, runId)).toMatchObject({ status: 'running', pages: 0 });
});
