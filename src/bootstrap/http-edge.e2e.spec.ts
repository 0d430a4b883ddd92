/**
 * The api's edge (http-edge.ts) on a real port: request ids on every answer, and problem+json for
 * what is refused before a route runs — too deep, not JSON, a prototype-poisoning key, a duplicate key, an undecodable URL,
 * a parameter too long, a request Node's HTTP parser refuses (a request that arrives while the api stops:
 * stop-http-api.e2e.spec.ts).
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { auth, startTestApp, type TestApp } from '../../test/harness/test-app';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../errors/json-depth';

let harness: TestApp;
let port: number;
beforeAll(async () => {
  harness = await startTestApp('http_edge');
  await harness.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(await harness.app.getUrl()).port);
});
afterAll(() => harness.close());

const url = (path: string) => `http://127.0.0.1:${port}${path}`;
const charge = { amount: 1250, currency: 'EUR', customerId: 'cus_edge' };
const nested = (levels: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};
/** `{"a":{"a":…"x"…}}` as text: JSON.stringify itself overflows on a few thousand levels. */
const nestedJson = (levels: number) => `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;

/** A request written on a bare socket, for what Node's parser refuses before Fastify; the whole answer as text. */
function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('X-Request-Id', () => {
  it("echoes the caller's id and records it as the correlation id of the events the request wrote", async () => {
    const orderId = `edge-${randomUUID()}`;
    const requestId = `req-${randomUUID()}`;
    const response = await fetch(url(`/v1/orders/${orderId}/charge`), {
      method: 'POST',
      headers: { ...auth('storefront'), 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify(charge),
    });
    expect(response.status).toBe(202);
    expect(response.headers.get('x-request-id')).toBe(requestId);
    const [requested] = await harness.runtime.eventStore.readStream(`order-${orderId}`);
    expect(requested.metadata).toMatchObject({ correlationId: requestId, requestId });
  });

  it('makes one when the caller sent none or an unusable one, on errors and unknown routes too', async () => {
    for (const [path, headers] of [
      ['/v1/orders/edge-1', {}],
      ['/v1/orders/edge-1', { ...auth('support'), 'x-request-id': 'x'.repeat(129) }],
      ['/no/such/route', { 'x-request-id': 'bad id with spaces' }],
      ['/health/live', {}],
    ] as const) {
      const response = await fetch(url(path), { headers });
      expect({ path, id: response.headers.get('x-request-id') }).toEqual({ path, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    }
  });
});

describe('refused before a route runs, as problem+json', () => {
  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels with 400 and writes nothing`, async () => {
    const orderId = `edge-deep-${randomUUID()}`;
    const sourceId = `deep-${randomUUID()}`;
    for (const [path, body] of [
      [`/v1/orders/${orderId}/charge`, `{"amount":1250,"currency":"EUR","customerId":"c","extra":${nestedJson(5000)}}`],
      ['/v1/contacts/import', `{"source":"crm","records":[{"sourceId":"${sourceId}","fields":{"a":${nestedJson(5000)}}}]}`],
    ] as const) {
      const token = path.startsWith('/v1/orders') ? auth('storefront') : auth('sync');
      const response = await fetch(url(path), {
        method: 'POST',
        headers: { ...token, 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ code: 'REQUEST.TOO_DEEP' });
    }
    expect(await harness.runtime.eventStore.readStream(`order-${orderId}`)).toEqual([]);
    expect(await harness.runtime.eventStore.readStream(`contact-crm.${sourceId}`)).toEqual([]);
  });

  it('refuses a body with a __proto__ or constructor.prototype key with 400 REQUEST.FORBIDDEN_KEY, writes nothing, stays up', async () => {
    const orderId = `edge-proto-${randomUUID()}`;
    for (const body of [
      '{"amount":1250,"currency":"EUR","customerId":"cus_edge","__proto__":{"isAdmin":true}}',
      '{"amount":1250,"currency":"EUR","customerId":"cus_edge","constructor":{"prototype":{"isAdmin":true}}}',
    ]) {
      const response = await fetch(url(`/v1/orders/${orderId}/charge`), {
        method: 'POST',
        headers: { ...auth('storefront'), 'content-type': 'application/json' },
        body,
      });
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = (await response.json()) as { code: string; title: string };
      expect(problem.code).toBe('REQUEST.FORBIDDEN_KEY');
      expect(problem.title).toContain('__proto__');
      expect(problem.title).toContain('constructor.prototype');
    }
    expect(await harness.runtime.eventStore.readStream(`order-${orderId}`)).toEqual([]);
    expect((await fetch(url(`/v1/orders/${orderId}`), { headers: auth('storefront') })).status).toBe(404);
    expect((await fetch(url('/health/live'))).status).toBe(200);
  });

  it('refuses a body that names a key twice in one object with 400 REQUEST.DUPLICATE_KEY naming it, writes nothing, stays up', async () => {
    const [first, second] = [`dup-a-${randomUUID()}`, `dup-b-${randomUUID()}`];
    const orderId = `edge-dup-${randomUUID()}`;
    const record = (sourceId: string) => `{"sourceId":"${sourceId}","fields":{"name":"n"}}`;
    for (const [path, token, body, field] of [
      ['/v1/contacts/import', auth('sync'), `{"source":"crm","records":[${record(first)}],"records":[${record(second)}]}`, 'records'],
      // Nested, and spelled differently: "n\u0061me" is "name" once decoded.
      [
        '/v1/contacts/import',
        auth('sync'),
        `{"source":"crm","records":[${record(first)},{"sourceId":"${second}","fields":{"name":"a","n\\u0061me":"b"}}]}`,
        'records.1.fields.name',
      ],
      [`/v1/orders/${orderId}/charge`, auth('storefront'), '{"amount":1250,"currency":"EUR","customerId":"c","amount":1}', 'amount'],
    ] as const) {
      const response = await fetch(url(path), { method: 'POST', headers: { ...token, 'content-type': 'application/json' }, body });
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = (await response.json()) as { code: string; title: string; errors: unknown };
      expect(problem.code).toBe('REQUEST.DUPLICATE_KEY');
      expect(problem.title).toContain(`"${field.split('.').pop()}"`);
      expect(problem.errors).toEqual([{ field, message: expect.any(String) }]);
    }
    for (const sourceId of [first, second]) {
      expect(await harness.runtime.eventStore.readStream(`contact-crm.${sourceId}`)).toEqual([]);
    }
    expect(await harness.runtime.eventStore.readStream(`order-${orderId}`)).toEqual([]);
    expect((await fetch(url('/health/live'))).status).toBe(200);
  });

  it('answers a body that is not JSON with 415', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const response = await fetch(url('/v1/orders/edge-2/charge'), {
        method: 'POST',
        headers: { ...auth('storefront'), 'content-type': contentType },
        body: JSON.stringify(charge),
      });
      expect({ contentType, status: response.status }).toEqual({ contentType, status: 415 });
      expect(await response.json()).toMatchObject({ code: 'REQUEST.UNSUPPORTED_MEDIA_TYPE' });
    }
  });

  it('gives every 415 one title, whether the edge or Fastify refused the media type', async () => {
    const titles = new Set<string>();
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'text/csv']) {
      const response = await fetch(url('/v1/orders/edge-2/charge'), {
        method: 'POST',
        headers: { ...auth('storefront'), 'content-type': contentType },
        body: JSON.stringify(charge),
      });
      expect({ contentType, status: response.status }).toEqual({ contentType, status: 415 });
      titles.add(((await response.json()) as { title: string }).title);
    }
    expect([...titles]).toEqual(['The body must be JSON (Content-Type: application/json)']);
  });

  it('answers an undecodable URL with 400 and an overlong path parameter with 414, without echoing them', async () => {
    const bad = await fetch(url('/v1/orders/%ZZ'), { headers: auth('support') });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await bad.json()).toMatchObject({ code: 'REQUEST.MALFORMED_URL' });

    const long = 'L'.repeat(300);
    const tooLong = await fetch(url(`/v1/orders/${long}`), { headers: { ...auth('support'), 'x-request-id': 'edge-414' } });
    expect(tooLong.status).toBe(414);
    expect(tooLong.headers.get('x-request-id')).toBe('edge-414');
    const text = await tooLong.text();
    expect(JSON.parse(text)).toMatchObject({ code: 'REQUEST.URI_TOO_LONG' });
    expect(text).not.toContain(long);
  });

  it('refuses a body sent with a Content-Encoding (gzip, or any but identity) with 415, compressed or not, and writes nothing', async () => {
    const body = JSON.stringify(charge);
    for (const [encoding, sent] of [
      ['gzip', gzipSync(body)],
      ['gzip', Buffer.from(body)],
      ['br', Buffer.from(body)],
    ] as const) {
      const orderId = `edge-coding-${randomUUID()}`;
      const response = await fetch(url(`/v1/orders/${orderId}/charge`), {
        method: 'POST',
        headers: { ...auth('storefront'), 'content-type': 'application/json', 'content-encoding': encoding, 'x-request-id': 'edge-415' },
        body: sent,
      });
      const seen = {
        encoding,
        status: response.status,
        type: response.headers.get('content-type'),
        id: response.headers.get('x-request-id'),
      };
      expect(seen).toEqual({ encoding, status: 415, type: expect.stringMatching(/^application\/problem\+json/), id: 'edge-415' });
      expect(await response.json()).toMatchObject({
        code: 'REQUEST.UNSUPPORTED_CONTENT_ENCODING',
        title: expect.stringContaining(encoding),
      });
      expect(await harness.runtime.eventStore.readStream(`order-${orderId}`)).toEqual([]);
    }
    const identity = await fetch(url(`/v1/orders/edge-coding-${randomUUID()}/charge`), {
      method: 'POST',
      headers: { ...auth('storefront'), 'content-type': 'application/json', 'content-encoding': 'identity' },
      body,
    });
    expect(identity.status).toBe(202);
    // A request without a body has nothing the header could describe.
    const read = await fetch(url('/v1/orders/edge-1'), { headers: { ...auth('support'), 'content-encoding': 'gzip' } });
    expect(read.status).toBe(404);
    expect(await read.json()).toMatchObject({ code: 'ORDER.NOT_FOUND' });
  });

  it('answers a method a known path does not take with 405 and its Allow header (RFC 9110 §15.5.6), writes nothing', async () => {
    const orderId = `edge-405-${randomUUID()}`;
    for (const [method, path, allow] of [
      ['DELETE', `/v1/orders/${orderId}`, 'GET, HEAD'],
      ['PUT', `/v1/orders/${orderId}/charge`, 'POST'],
      ['GET', `/v1/orders/${orderId}/charge`, 'POST'],
      ['POST', '/health/live', 'GET, HEAD'],
      ['GET', '/v1/webhooks/payments', 'POST'],
      ['PATCH', '/v1/support/orders/x/resolve', 'POST'],
    ] as const) {
      const response = await fetch(url(path), {
        method,
        headers: { ...auth('storefront'), 'content-type': 'application/json', 'x-request-id': 'edge-405' },
        body: method === 'GET' ? undefined : JSON.stringify(charge),
      });
      const seen = {
        method,
        path,
        status: response.status,
        allow: response.headers.get('allow'),
        type: response.headers.get('content-type'),
        id: response.headers.get('x-request-id'),
      };
      expect(seen).toEqual({
        method,
        path,
        status: 405,
        allow,
        type: expect.stringMatching(/^application\/problem\+json/),
        id: 'edge-405',
      });
      expect(await response.json()).toMatchObject({
        status: 405,
        code: 'ROUTE.METHOD_NOT_ALLOWED',
        title: `${path} takes ${allow}, not ${method}`,
      });
    }
    expect(await harness.runtime.eventStore.readStream(`order-${orderId}`)).toEqual([]);
    // A path no route serves stays 404, whatever the method.
    const unknown = await fetch(url('/no/such/route'), { method: 'DELETE' });
    expect({ status: unknown.status, allow: unknown.headers.get('allow') }).toEqual({ status: 404, allow: null });
  });

  it("answers what Node's HTTP parser refuses (an unknown method) with a problem, and stays up", async () => {
    const answer = await rawRequest('FOO /v1/orders/edge-3 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    expect(answer).toContain('"code":"REQUEST.MALFORMED"');
    expect((await fetch(url('/health/live'))).status).toBe(200);
  });
});

describe('nestedDeeperThan', () => {
  it('counts objects and arrays as levels, not scalars, and walks without recursion', () => {
    expect(nestedDeeperThan(nested(3), 3)).toBe(false);
    expect(nestedDeeperThan(nested(4), 3)).toBe(true);
    expect(nestedDeeperThan([[[1]]], 3)).toBe(false);
    expect(nestedDeeperThan([[[[1]]]], 3)).toBe(true);
    expect(nestedDeeperThan(nested(100_000), 64)).toBe(true);
    expect(nestedDeeperThan('just a string', 1)).toBe(false);
  });
});
