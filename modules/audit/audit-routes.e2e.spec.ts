/**
 * The auditors' routes over HTTP (the real api in-process, real PostgreSQL): GET /v1/audit/events
 * pages the global history with each event's chain hash, as JSON or NDJSON; GET /v1/audit/verify
 * reports the first break; both are for the auditor role only and answer bad queries with 400.
 */
import { randomUUID } from 'node:crypto';
import { auditChainProjector } from '../../projections/audit-chain/audit-chain.projector';
import type { EventMetadata } from '../../src/event-store/event-store.port';
import { startProjections } from '../../src/subscriptions/start-projections';
import { expectProblem } from '../../test/harness/expect-problem';
import { auth, startTestApp, type TestApp } from '../../test/harness/test-app';
import { waitUntilCaughtUp } from '../../test/projections/projection-harness';

const metadata: EventMetadata = {
  correlationId: 'r',
  causationId: 'r',
  actor: { role: 'test', tokenId: 't' },
  recordedAt: new Date().toISOString(),
};
const STREAMS = ['order-r1', 'order-r2', 'order-r3'];
/** Small enough that the six events below are sealed three times (the feature's default is one per 1,000). */
const SEAL_EVERY = 2;

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('audit_routes');
  const { eventStore: store, pool } = harness.runtime;
  for (const stream of [...STREAMS, ...STREAMS])
    await store.append(stream, [{ id: randomUUID(), type: 'Happened', data: { stream }, metadata }], 'any');
  const projector = auditChainProjector({ sealEvery: SEAL_EVERY });
  const running = await startProjections({ store, pool, readModels: [], reactors: [projector] });
  try {
    await waitUntilCaughtUp(store, pool, [projector]);
  } finally {
    await running.stop();
  }
});
afterAll(() => harness.close());

const get = (url: string, headers: Record<string, string> = auth('auditor')) => harness.app.inject({ method: 'GET', url, headers });

describe('GET /v1/audit/events', () => {
  it('pages the global history in order, each event with its chain hash, and points at the next page', async () => {
    const first = await get('/v1/audit/events?limit=4');
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.events).toHaveLength(4);
    expect(page.events[0]).toEqual({
      position: expect.any(String),
      stream: 'order-r1',
      revision: 0,
      id: expect.any(String),
      type: 'Happened',
      data: { stream: 'order-r1' },
      metadata,
      created: expect.any(String),
      chainHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(page.next).toBe(page.events[3].position);

    const rest = (await get(`/v1/audit/events?after=${encodeURIComponent(page.next)}&limit=4`)).json();
    expect(rest.events.map((e: { stream: string; revision: number }) => `${e.stream}@${e.revision}`)).toEqual(['order-r2@1', 'order-r3@1']);
    expect(rest.next).toBeNull();
  });

  it('answers NDJSON, one event per line, when asked for application/x-ndjson', async () => {
    const response = await get('/v1/audit/events?limit=2', { ...auth('auditor'), accept: 'application/x-ndjson' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = response.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((e) => e.stream)).toEqual(['order-r1', 'order-r2']);
    expect(response.headers['idem-next-after']).toBe(lines[1].position);
  });

  it.each([
    ['application/x-ndjson', 'ndjson'],
    ['application/json;q=0.5, application/x-ndjson', 'ndjson'],
    ['application/x-ndjson, application/json', 'ndjson'],
    ['Application/X-NDJSON', 'ndjson'],
    ['application/x-ndjson;q=0.1, application/json', 'json'],
    ['application/json, application/x-ndjson;q=0.9', 'json'],
    ['application/x-ndjson;q=0', 'json'],
    ['application/x-ndjson; q=0.0, */*', 'json'],
    ['*/*', 'json'],
    [undefined, 'json'],
  ])('weighs Accept: %s by its q-values (RFC 9110 §12.5.1) and answers %s, saying it varies by Accept', async (accept, format) => {
    const response = await get('/v1/audit/events?limit=2', { ...auth('auditor'), ...(accept === undefined ? {} : { accept }) });
    expect(response.statusCode).toBe(200);
    const type = String(response.headers['content-type']);
    expect({
      accept,
      format: type.startsWith('application/x-ndjson') ? 'ndjson' : type.startsWith('application/json') ? 'json' : type,
    }).toEqual({
      accept,
      format,
    });
    expect(response.headers.vary).toMatch(/\baccept\b/i);
  });

  it.each([
    ['an after that is no checkpoint', '?after=yesterday'],
    ['an after whose sequence is beyond 64 bits', '?after=1/99999999999999999999'],
    ['an after whose sequence is beyond a signed bigint', '?after=1/9223372036854775808'],
    ['an after whose transaction id is beyond 64 bits', '?after=99999999999999999999/1'],
    ['a limit of 0', '?limit=0'],
    ['a limit above 1000', '?limit=1001'],
    ['a limit that is no number', '?limit=ten'],
  ])('answers %s with 400 naming the field', async (_, query) => {
    expectProblem(await get(`/v1/audit/events${query}`), 400, 'REQUEST.INVALID');
  });
});

describe('query parameters the audit routes do not know', () => {
  it('refuses them with a 400 naming each, beside known ones too', async () => {
    const events = await get('/v1/audit/events?bogus=1&limit=2');
    expectProblem(events, 400, 'REQUEST.INVALID');
    expect(events.json().errors).toEqual([{ field: 'bogus', message: 'property bogus should not exist' }]);
    const verify = await get('/v1/audit/verify?streams=order-r1');
    expectProblem(verify, 400, 'REQUEST.INVALID');
    expect(verify.json().errors).toEqual([{ field: 'streams', message: 'property streams should not exist' }]);
  });
});

describe('GET /v1/audit/verify', () => {
  it('verifies the whole history with its seals, or one stream', async () => {
    const { rows } = await harness.runtime.pool.query<{ sealed: number }>(
      'SELECT events_sealed::int AS sealed FROM audit_seals ORDER BY 1',
    );
    expect(rows.map((row) => row.sealed)).toEqual([2, 4, 6]);
    expect((await get('/v1/audit/verify')).json()).toMatchObject({ ok: true, checked: 6, sealsChecked: 3, unchained: 0 });
    expect((await get('/v1/audit/verify?stream=order-r2')).json()).toEqual({ ok: true, checked: 2, sealsChecked: 0, unchained: 0 });
  });

  it('answers a stream the history never held with 404, not an ok over nothing', async () => {
    expectProblem(await get('/v1/audit/verify?stream=nope-x'), 404, 'STREAM.NOT_FOUND');
  });

  it('answers a stream name with forbidden characters with 400', async () => {
    expectProblem(await get('/v1/audit/verify?stream=order%20r1'), 400, 'REQUEST.INVALID');
  });

  it('reports an event changed in the database as the first break, with 200', async () => {
    await harness.runtime.pool.query(
      `UPDATE idem_events SET data = '{"stream":"elsewhere"}' WHERE stream_name = 'order-r3' AND revision = 1`,
    );
    const response = await get('/v1/audit/verify');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ok: false, checked: 5, firstBreak: { kind: 'rewritten', stream: 'order-r3', revision: 1 } });
    expect((await get('/v1/audit/verify?stream=order-r3')).json()).toMatchObject({ ok: false, firstBreak: { kind: 'rewritten' } });
  });
});

describe('the audit routes', () => {
  it.each(['/v1/audit/events', '/v1/audit/verify'])(
    'refuse %s to the storefront (403) and to a caller without a token (401)',
    async (url) => {
      expect((await get(url, auth('storefront'))).statusCode).toBe(403);
      expect((await get(url, auth('support'))).statusCode).toBe(403);
      expect((await get(url, {})).statusCode).toBe(401);
    },
  );
});
