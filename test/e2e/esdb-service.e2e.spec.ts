/**
 * EVENT_STORE=esdb: the whole service (api, projections, charge jobs, contact imports) on the
 * EventStoreDB adapter — here against the protocol emulator — with read models and jobs in PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { startEsdbEmulator } from '../esdb-emulator';
import { auth } from '../harness/test-app';
import { startTestService, type TestService } from '../harness/test-service';
import { isSucceededCharge } from '../../modules/sandbox';
import { waitUntil } from '../harness/wait-until';

jest.setTimeout(120_000);

let emulator: Awaited<ReturnType<typeof startEsdbEmulator>>;
let service: TestService;

beforeAll(async () => {
  emulator = await startEsdbEmulator({ port: 0 });
  service = await startTestService('esdb_service', { EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: emulator.connectionString });
});
afterAll(async () => {
  await service.close();
  await emulator.close();
});

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
});
