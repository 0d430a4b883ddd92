/**
 * EVENT_STORE=esdb: the whole service (api, projections, charge jobs) on the EventStoreDB adapter —
 * here against the protocol emulator — with read models and jobs in PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { startEsdbEmulator } from '../esdb-emulator';
import { auth } from '../harness/test-app';
import { startTestService, type TestService } from '../harness/test-service';
import { isSucceededCharge } from '../../modules/sandbox';

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
});
