/**
 * EVENT_STORE=esdb: the whole service (api, projections, charge jobs, contact imports and pull runs)
 * on the EventStoreDB adapter — here against the protocol emulator — with read models and jobs in
 * PostgreSQL. Pull runs read a sandbox CRM of their own, configured as the provider's base URL is in
 * development (contact sources sit beside the provider); the harness's sandbox still takes the charges.
 */
import { randomUUID } from 'node:crypto';
import { startEsdbEmulator } from '../esdb-emulator';
import { auth } from '../harness/test-app';
import { startTestService, type TestService } from '../harness/test-service';
import type { RunView } from '../../modules/contacts';
import { createSandbox, isSucceededCharge, type Sandbox } from '../../modules/sandbox';
import { waitUntil } from '../harness/wait-until';

jest.setTimeout(120_000);

let emulator: Awaited<ReturnType<typeof startEsdbEmulator>>;
let crm: Sandbox;
let service: TestService;

beforeAll(async () => {
  emulator = await startEsdbEmulator({ port: 0 });
  crm = await createSandbox();
  service = await startTestService('esdb_service', {
    EVENT_STORE: 'esdb',
    EVENTSTORE_CONNECTION_STRING: emulator.connectionString,
    STRIPE_API_BASE: crm.url,
  });
  service.sandbox.createCustomer({ id: 'c' });
});
afterAll(async () => {
  await service.close();
  await crm.close();
  await emulator.close();
});

const sync = { 'content-type': 'application/json', ...auth('sync') };

describe('the service on EventStoreDB', () => {
  it('reports the event store ready, records the charge in EventStoreDB and charges once', async () => {
    const ready = await fetch(`${service.url}/health/ready`);
    expect(ready.status).toBe(200);
    const orderId = `esdb-${randomUUID()}`;
    const first = await fetch(`${service.url}/v1/orders/${orderId}/charge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth('storefront') },
      body: JSON.stringify({ amount: 3100, currency: 'EUR', customerId: 'c' }),
    });
    expect(first.status).toBe(202);
    const settled = await fetch(`${service.url}/v1/orders/${orderId}/charge?waitMs=10000`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth('storefront') },
      body: JSON.stringify({ amount: 3100, currency: 'EUR', customerId: 'c' }),
    });
    expect(settled.status).toBe(200);
    expect(await settled.json()).toMatchObject({ orderId, status: 'paid', revision: 2 });
    expect(service.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
    const events = await service.runtime.eventStore.readStream(`order-${orderId}`);
    expect(events.map((e) => e.type)).toEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeSucceeded']);
  });

  it('imports each contact once from four concurrent pushes, skips the stale one, and projects the freshest version', async () => {
    const prefix = `esdb-${randomUUID().slice(0, 8)}-`;
    const batch = (version: number) =>
      Array.from({ length: 20 }, (_, i) => ({
        sourceId: `${prefix}${i}`,
        version,
        eventId: `${prefix}${i}-v${version}`,
        fields: { v: version },
      }));
    const push = async (records: unknown[]) => {
      const response = await fetch(`${service.url}/v1/contacts/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth('sync') },
        body: JSON.stringify({ source: 'crm', records }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { results: Array<{ sourceId: string; outcome: string; revision: number }> };
    };

    const concurrent = await Promise.all([push(batch(1)), push(batch(1)), push(batch(1)), push(batch(1))]);
    const outcomes = concurrent.flatMap((answer) => answer.results.map((r) => r.outcome));
    expect(outcomes.filter((o) => o === 'imported')).toHaveLength(20);
    expect(outcomes.filter((o) => o !== 'imported').every((o) => o === 'duplicate' || o === 'unchanged')).toBe(true);
    expect((await push(batch(2))).results.every((r) => r.outcome === 'updated' && r.revision === 1)).toBe(true);
    expect((await push(batch(1).map((r) => ({ ...r, eventId: `${r.eventId}-late` })))).results.map((r) => r.outcome)).toEqual(
      Array(20).fill('skipped_stale'),
    );

    // In EventStoreDB: one event per distinct version of each contact.
    const streams = await Promise.all(batch(2).map((r) => service.runtime.eventStore.readStream(`contact-crm.${r.sourceId}`)));
    expect(streams.map((events) => events.map((e) => e.revision))).toEqual(Array(20).fill([0, 1]));
    // The contacts read model (PostgreSQL, fed from EventStoreDB's $all) catches up to version 2.
    const rows = await waitUntil(
      async () =>
        (
          await service.runtime.pool.query<{ version: number }>(`SELECT version FROM contacts WHERE source = 'crm' AND source_id LIKE $1`, [
            `${prefix}%`,
          ])
        ).rows,
      (found) => found.length === 20 && found.every((row) => Number(row.version) === 2),
      30_000,
    );
    expect(rows).toHaveLength(20);
  });

  it('completes a pull run of 300 CRM contacts with the right counts, lists it, and projects every contact', async () => {
    const reset = await fetch(`${crm.url}/crm/_control/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seed: 7, size: 300 }),
    });
    expect(reset.ok).toBe(true);
    const started = await fetch(`${service.url}/v1/sync/runs`, { method: 'POST', headers: sync, body: JSON.stringify({ source: 'crm' }) });
    expect(started.status).toBe(202);
    const { runId } = (await started.json()) as { runId: string };

    const getRun = async () => (await (await fetch(`${service.url}/v1/sync/runs/${runId}`, { headers: auth('sync') })).json()) as RunView;
    const run = await waitUntil(getRun, (view) => view.status !== 'running', 60_000);
    expect(run).toMatchObject({ runId, kind: 'pull', status: 'completed', processed: 300, cursor: null });
    expect(run.counts).toEqual({
      imported: 300,
      updated: 0,
      unchanged: 0,
      skipped_stale: 0,
      duplicate: 0,
      deleted: 0,
      rejected: 0,
      conflict: 0,
    });
    // Its events are in EventStoreDB: the start, one per record, the pages and the completion.
    const events = await service.runtime.eventStore.readStream(`import-${runId}`);
    expect(events.filter((e) => e.type === 'ImportRecordProcessed')).toHaveLength(300);
    expect(events.at(-1)!.type).toBe('ImportRunCompleted');

    // The read models (PostgreSQL, fed from EventStoreDB's $all): the run in the list, every contact.
    const listed = await waitUntil(
      async () =>
        ((await (await fetch(`${service.url}/v1/sync/runs?status=completed`, { headers: auth('sync') })).json()) as { runs: RunView[] })
          .runs,
      (runs) => runs.some((r) => r.runId === runId),
      30_000,
    );
    expect(listed.find((r) => r.runId === runId)).toEqual(run);
    const sourceIds = Array.from({ length: 300 }, (_, i) => `c${i}`);
    const projected = await waitUntil(
      async () =>
        (
          await service.runtime.pool.query<{ source_id: string; version: string }>(
            `SELECT source_id, version FROM contacts WHERE source = 'crm' AND source_id = ANY($1)`,
            [sourceIds],
          )
        ).rows,
      (rows) => rows.length === 300,
      30_000,
    );
    expect(projected.every((row) => Number(row.version) === 1)).toBe(true);
  });
});
