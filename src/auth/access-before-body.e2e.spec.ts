/**
 * Who may call a route is decided before its body is read (access-before-body.ts): a caller without a
 * valid token is answered 401 whatever it sent, never 400 or 413 from a body it had no right to send.
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { auth, listenOnFreePort, startTestApp, type TestApp } from '../../test/harness/test-app';

let harness: TestApp;
let server: Awaited<ReturnType<typeof listenOnFreePort>>;
beforeAll(async () => {
  harness = await startTestApp('access_before_body');
  server = await listenOnFreePort(harness.app);
});
afterAll(() => harness.close());

const url = (path: string) => server.url(path);
const UNKNOWN_TOKEN = { authorization: 'Bearer not-a-token-of-this-service' };
/** `{"a":{"a":…"x"…}}` as text, deeper than the edge accepts. */
const nestedJson = (levels: number) => `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;

async function post(path: string, headers: Record<string, string>, body: string) {
  const response = await fetch(url(path), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
  return { response, problem: (await response.json()) as Record<string, unknown> };
}

/**
 * Sends the head of a request that announces `contentLength` bytes and only `sent` of them, and resolves
 * with the answer's first bytes: an answer that comes before the rest of the body proves it was not awaited.
 */
function answerBeforeBodyEnds(path: string, headers: Record<string, string>, contentLength: number, sent: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const head = Object.entries({ ...headers, host: 'x', 'content-type': 'application/json', 'content-length': String(contentLength) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const socket = connect(server.port, '127.0.0.1', () => socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${'['.repeat(sent)}`));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
      if (answer.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

describe('a route that requires a role, called without a valid token', () => {
  it('answers 401 AUTH.TOKEN_REQUIRED to a malformed body, with no token or an unknown one, keeping the request id', async () => {
    for (const [caller, headers] of [
      ['no token', {}],
      ['unknown token', UNKNOWN_TOKEN],
    ] as const) {
      const { response, problem } = await post(
        '/v1/orders/edge-auth-1/charge',
        { ...headers, 'x-request-id': 'edge-401' },
        '{"amount": 12',
      );
      expect({ caller, status: response.status, code: problem.code }).toEqual({ caller, status: 401, code: 'AUTH.TOKEN_REQUIRED' });
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.headers.get('x-request-id')).toBe('edge-401');
    }
  });

  it('answers 401, not 413 or 400, to a body over the size limit or nested too deep', async () => {
    for (const [body, what] of [
      [`{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`, 'a 2 MB body'],
      [`{"amount":1250,"extra":${nestedJson(5000)}}`, 'a body nested 5000 deep'],
    ] as const) {
      const { response, problem } = await post('/v1/orders/edge-auth-2/charge', UNKNOWN_TOKEN, body);
      expect({ what, status: response.status, code: problem.code }).toEqual({ what, status: 401, code: 'AUTH.TOKEN_REQUIRED' });
    }
  });

  it('answers a 6 MB import with an unknown token 401 before the body has even arrived', async () => {
    const answer = await answerBeforeBodyEnds('/v1/contacts/import', UNKNOWN_TOKEN, 6 * 1024 * 1024, 64 * 1024);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    expect((await fetch(url('/health/live'))).status).toBe(200);
  });

  it('writes nothing', async () => {
    const orderId = `edge-auth-${randomUUID()}`;
    const { response } = await post(
      `/v1/orders/${orderId}/charge`,
      UNKNOWN_TOKEN,
      JSON.stringify({ amount: 1, currency: 'EUR', customerId: 'c' }),
    );
    expect(response.status).toBe(401);
    expect(await harness.runtime.eventStore.readStream(`order-${orderId}`)).toEqual([]);
  });
});

describe('the challenge of a 401 (RFC 9110 §11.6.1, RFC 6750 §3)', () => {
  it.each([
    ['no token', {}, 'Bearer realm="idem"'],
    ['a scheme other than Bearer', { authorization: 'Basic ZGV2LXN1cHBvcnQ6' }, 'Bearer realm="idem"'],
    ['an unknown token', UNKNOWN_TOKEN, 'Bearer realm="idem", error="invalid_token"'],
  ])('names the Bearer scheme in WWW-Authenticate when called with %s', async (_caller, headers, challenge) => {
    for (const [method, path] of [
      ['GET', '/v1/support/overview'],
      ['POST', '/v1/orders/edge-auth-5/charge'],
    ] as const) {
      const response = await fetch(url(path), {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      expect({ path, status: response.status, challenge: response.headers.get('www-authenticate') }).toEqual({
        path,
        status: 401,
        challenge,
      });
    }
  });

  it('is not sent with a 403: the token is known, another one would not help this caller', async () => {
    const response = await fetch(url('/v1/support/overview'), { headers: auth('storefront') });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBeNull();
  });
});

describe('a route that requires a role, called with a known token', () => {
  it('answers a malformed body from its role 400 REQUEST.MALFORMED, as before', async () => {
    const { response, problem } = await post('/v1/orders/edge-auth-3/charge', auth('storefront'), '{"amount": 12');
    expect(response.status).toBe(400);
    expect(problem.code).toBe('REQUEST.MALFORMED');
  });

  it('answers a token of another role 403 AUTH.ROLE_FORBIDDEN before its body is parsed', async () => {
    const { response, problem } = await post('/v1/orders/edge-auth-4/charge', auth('support'), '{"amount": 12');
    expect(response.status).toBe(403);
    expect(problem.code).toBe('AUTH.ROLE_FORBIDDEN');
  });
});

describe('the routes anyone may call', () => {
  it('stay open without a token: health, metrics, the admin page, the API docs', async () => {
    for (const path of ['/health/live', '/health/ready', '/metrics', '/admin', '/admin/admin.js', '/docs', '/docs/openapi.json']) {
      const response = await fetch(url(path));
      expect({ path, status: response.status }).toEqual({ path, status: path === '/health/ready' ? expect.any(Number) : 200 });
      expect({ path, unauthenticated: response.status === 401 }).toEqual({ path, unauthenticated: false });
    }
  });

  it('lets the webhook, which authenticates by signature, parse its body without a token', async () => {
    const malformed = await post('/v1/webhooks/payments', {}, '{"id": ');
    expect({ status: malformed.response.status, code: malformed.problem.code }).toEqual({ status: 400, code: 'REQUEST.MALFORMED' });
    const unsigned = await post('/v1/webhooks/payments', {}, '{"id":"evt_1"}');
    expect({ status: unsigned.response.status, code: unsigned.problem.code }).toEqual({ status: 400, code: 'WEBHOOK.SIGNATURE_MISSING' });
  });

  it('answers an unknown path 404 without asking for a token', async () => {
    const { response, problem } = await post('/v1/no/such/route', {}, '{}');
    expect({ status: response.status, code: problem.code }).toEqual({ status: 404, code: 'ROUTE.NOT_FOUND' });
  });
});
