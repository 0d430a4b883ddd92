/**
 * A pull run whose worker process is SIGKILLed mid-run is finished by the next worker process that
 * starts: no command, no operator. The first worker is killed while it waits for page 3 (the sandbox
 * CRM holds that page), after pages 1 and 2 were recorded; the second worker, started with the fault
 * lifted, drives the run from its last recorded cursor to `completed`: every contact once, one revision
 * each, and the run's counts add up to the source's size.
 */
import { createSandbox, type Sandbox } from '../../modules/sandbox';
import { loadRun, startRun } from '../../modules/contacts';
import { startTestApp, type TestApp } from '../harness/test-app';
import { waitUntil } from '../harness/wait-until';
import { startWorkerProcess, type WorkerProcess } from '../harness/worker-process';

jest.setTimeout(180_000);

const SIZE = 5_000;

let api: TestApp;
let sandbox: Sandbox;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  api = await startTestApp('worker_resumes_import');
  sandbox = await createSandbox({ crm: { seed: 7, size: SIZE } });
});
afterAll(async () => {
  await worker?.kill();
  await sandbox.close();
  await api.close();
});

const workerEnv = () => ({ DATABASE_URL: api.runtime.databaseUrl, IDEM_SANDBOX: 'false', STRIPE_API_BASE: sandbox.url });
const crmFaults = (init: RequestInit) =>
  fetch(`${sandbox.url}/crm/_control/faults`, { headers: { 'content-type': 'application/json' }, ...init });

describe('a pull run whose worker process is killed', () => {
  it('is resumed by the next worker that starts and completes with every contact once', async () => {
    const store = api.runtime.eventStore;
    await crmFaults({ method: 'POST', body: JSON.stringify({ page: 3, kind: 'latency', ms: 8_000 }) });
    const runId = await startRun(
      store,
      { source: 'crm', startedBy: 'test', kind: 'pull' },
      { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } },
    );

    worker = await startWorkerProcess(workerEnv());
    const stalled = await waitUntil(
      () => loadRun(store, runId),
      (run) => run.pages >= 2,
      60_000,
    );
    await worker.kill('SIGKILL');
    expect(stalled).toMatchObject({ status: 'running', pages: 2, processed: 2_000 });
    expect((await loadRun(store, runId)).pages).toBe(2);

    await crmFaults({ method: 'DELETE' });
    worker = await startWorkerProcess(workerEnv());
    const finished = await waitUntil(
      () => loadRun(store, runId),
      (run) => run.status !== 'running',
      120_000,
    );
    expect(finished).toMatchObject({ status: 'completed', processed: SIZE });
    expect(Object.values(finished.counts).reduce((a, b) => a + b, 0)).toBe(SIZE);

    const { rows } = await api.runtime.pool.query(
      `SELECT count(DISTINCT stream_name)::int AS contacts, count(*)::int AS events FROM idem_events WHERE stream_name LIKE 'contact-crm.%'`,
    );
    expect(rows[0]).toEqual({ contacts: SIZE, events: SIZE });
  });
});
