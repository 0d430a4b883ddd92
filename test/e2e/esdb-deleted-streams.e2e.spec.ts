/**
 * An order's stream tombstoned on EventStoreDB behind Idem's back (the real api in-process on the
 * EventStoreDB adapter, against the protocol emulator): the routes answer with problem+json or a
 * report — the order unknown (404), a new charge refused (409), verify naming the stream `missing` —
 * and never pass the server's refusal on as a 500.
 */
import { EventStoreDBClient } from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import { startEsdbEmulator, type EsdbEmulator } from '../esdb-emulator';
import { expectProblem } from '../harness/expect-problem';
import { auth, startTestApp, type TestApp } from '../harness/test-app';
import { linkChain } from '../harness/audit-history';

let emulator: EsdbEmulator;
let operator: EventStoreDBClient;
let harness: TestApp;
beforeAll(async () => {
  emulator = await startEsdbEmulator();
  operator = EventStoreDBClient.connectionString(emulator.connectionString);
  harness = await startTestApp('esdb_deleted_streams', { EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: emulator.connectionString });
});
afterAll(async () => {
  await harness?.close();
  await operator?.dispose();
  await emulator?.close();
});

const charge = { amount: 1200, currency: 'EUR', customerId: 'c-deleted' };
const requestCharge = (orderId: string) =>
  harness.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge`,
    headers: { 'content-type': 'application/json', ...auth('storefront') },
    payload: charge,
  });
const get = (url: string) => harness.app.inject({ method: 'GET', url, headers: auth('auditor') });

describe('an order whose stream was tombstoned on EventStoreDB', () => {
  const orderId = `deleted-${randomUUID()}`;
  beforeAll(async () => {
    expect((await requestCharge(orderId)).statusCode).toBe(202);
    await linkChain({ store: harness.runtime.eventStore, pool: harness.runtime.pool }, 1_000);
    await operator.tombstoneStream(`order-${orderId}`);
  });

  it('is unknown to GET /v1/orders/{orderId} and its /events (404)', async () => {
    expectProblem(await get(`/v1/orders/${orderId}`), 404, 'ORDER.NOT_FOUND');
    expectProblem(await get(`/v1/orders/${orderId}/events`), 404, 'ORDER.NOT_FOUND');
  });

  it('refuses a new charge with 409 and writes nothing', async () => {
    expectProblem(await requestCharge(orderId), 409, 'EVENT_STORE.STREAM_DELETED');
    expect(await harness.runtime.eventStore.readStream(`order-${orderId}`)).toEqual([]);
  });

  it('is reported missing by GET /v1/audit/verify, for the whole history and for the stream', async () => {
    const stream = `order-${orderId}`;
    const missing = { ok: false, firstBreak: expect.objectContaining({ kind: 'missing', stream, revision: 0 }) as unknown };
    const whole = await get('/v1/audit/verify');
    expect(whole.statusCode).toBe(200);
    expect(whole.json()).toMatchObject(missing);
    const one = await get(`/v1/audit/verify?stream=${stream}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject(missing);
  });
});
