/**
 * Events nested thousands of levels deep, as an earlier build stored them before the api refused
 * bodies deeper than 64 levels: they stay in the history for good, and GET /v1/audit/verify must still
 * hash them — the recursive canonical JSON ran out of stack on them and the route answered 500.
 */
import { randomUUID } from 'node:crypto';
import { appendLinked } from '../../src/command-handling/append-linked';
import type { EventMetadata } from '../../src/event-store/event-store.port';
import { linkChain } from '../../test/harness/audit-history';
import { auth, startTestApp, type TestApp } from '../../test/harness/test-app';

const metadata: EventMetadata = {
  correlationId: 'deep',
  causationId: 'deep',
  actor: { role: 'test', tokenId: 't' },
  recordedAt: '2026-12-02T00:00:00.000Z',
};
const DEPTH = 4000;
const STREAM = 'order-deep';

/** `{"nested":[{"nested":[…{"leaf":n}…]}]}`: `DEPTH` levels, objects and arrays in turn. */
function deepData(n: number): Record<string, unknown> {
  let value: unknown = { leaf: n };
  for (let level = 1; level < DEPTH; level++) value = level % 2 ? [value] : { nested: value };
  return { nested: value };
}

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('audit_deep');
  const { eventStore: store, pool } = harness.runtime;
  // Straight to the store, as the old api did: the depth check of today's api is not in the way.
  const events = [0, 1, 2].map((n) => ({ id: randomUUID(), type: 'Happened', data: deepData(n), metadata }));
  await appendLinked(store, STREAM, events, 'no_stream', undefined);
  await linkChain({ store, pool }, 2);
});
afterAll(() => harness.close());

const get = (url: string) => harness.app.inject({ method: 'GET', url, headers: auth('auditor') });

describe(`GET /v1/audit/verify over events nested ${DEPTH} levels deep`, () => {
  it('verifies their stream (their hash links and their chain) with 200', async () => {
    const response = await get(`/v1/audit/verify?stream=${STREAM}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, checked: 3, sealsChecked: 0, unchained: 0 });
  });

  it('verifies the whole history with its seals, with 200', async () => {
    const response = await get('/v1/audit/verify');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ok: true, checked: 3, sealsChecked: 1, unchained: 0 });
  });
});
