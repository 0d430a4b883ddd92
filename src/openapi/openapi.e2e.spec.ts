import { PATH_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { auth, startTestApp, type TestApp } from '../../test/harness/test-app';
import { ROLES_KEY } from '../auth/roles';
import { routeHandlers } from './route-handlers';

interface Operation {
  description?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }>;
}
type Schema = { type?: string; required?: string[]; properties?: Record<string, Schema>; enum?: string[]; [rule: string]: unknown };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, Schema> };
};

let harness: TestApp;
let document: Document;
beforeAll(async () => {
  harness = await startTestApp('openapi');
  const response = await harness.app.inject({ method: 'GET', url: '/docs/openapi.json' });
  expect(response.statusCode).toBe(200);
  document = response.json<Document>();
});
afterAll(() => harness.close());

/** Every route Nest's router registered, as OpenAPI names it: `GET /v1/orders/{orderId}`. */
function registeredRoutes() {
  const joined = (...parts: string[]) => `/${parts.join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  return routeHandlers(harness.app).flatMap(({ controller, handler }) => {
    const base = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]].flat();
    const own = [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat();
    const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod].toLowerCase();
    const roles = Reflect.getMetadata(ROLES_KEY, handler) as string[] | undefined;
    return base.flatMap((b) => own.map((o) => ({ method, path: joined(b, o).replace(/:(\w+)/g, '{$1}'), roles })));
  });
}

/**
 * Every route Fastify answers for a method, Nest's and Fastify's own (`GET /`, `/admin/`, Swagger UI's files),
 * as OpenAPI names it: read from the router's printed tree, in which each line is a route and its path the
 * prefixes of the lines above it.
 */
function servedRoutes(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE') {
  const prefixes: string[] = [];
  const routes: string[] = [];
  for (const line of harness.app.getHttpAdapter().getInstance().printRoutes({ method, commonPrefix: false }).split('\n')) {
    const node = /^((?:│ {3}| {4})*)[├└]── (.+) \(([A-Z]+)\)$/.exec(line);
    if (!node) continue;
    prefixes.length = node[1].length / 4;
    prefixes.push(node[2]);
    routes.push(`${method.toLowerCase()} ${prefixes.join('').replace(/:(\w+)/g, '{$1}')}`);
  }
  return routes;
}

describe('GET /docs/openapi.json', () => {
  it('documents every route the api answers, also those Fastify serves outside Nest', () => {
    const served = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).flatMap(servedRoutes);
    expect(served).toEqual(expect.arrayContaining(['get /health/live', 'get /v1/sync/runs/{runId}', 'post /v1/orders/{orderId}/charge']));
    // Not api routes: Swagger UI's own files (the document is the answer of one of them), and `/admin/`, sent on to `/admin`.
    const undocumented = served.filter(
      (route) => !/^get \/docs(\/|$)/.test(route) && route !== 'get /admin/' && !document.paths[route.split(' ')[1]]?.[route.split(' ')[0]],
    );
    expect(undocumented).toEqual([]);
  });

  it('documents no route the api does not answer', () => {
    const fastify = harness.app.getHttpAdapter().getInstance();
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => ({ method, path })));
    expect(documented.length).toBeGreaterThan(20);
    const missing = documented.filter(
      ({ method, path }) => !fastify.hasRoute({ method: method.toUpperCase() as 'GET', url: path.replace(/\{(\w+)\}/g, ':$1') }),
    );
    expect(missing).toEqual([]);
  });

  it('lists every route the api serves, of every feature and of the kernel', () => {
    const routes = registeredRoutes();
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['post /v1/orders/{orderId}/charge', 'get /health/ready', 'get /metrics', 'get /v1/auth/caller']),
    );
    for (const { method, path } of routes)
      expect({ route: `${method} ${path}`, documented: !!document.paths[path]?.[method] }).toEqual({
        route: `${method} ${path}`,
        documented: true,
      });
  });

  it('asks for a bearer token on every route with roles and names the roles in its description', () => {
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { method, path, roles } of registeredRoutes().filter((r) => r.roles)) {
      const operation = document.paths[path][method];
      expect(operation.security).toEqual([{ bearer: [] }]);
      expect(operation.description).toContain(`Roles: ${roles!.join(', ')}.`);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403']));
    }
    expect(document.paths['/health/ready'].get.security).toBeUndefined();
    expect(document.paths['/health/ready'].get.description).toBe('No authentication.');
  });

  it('keeps each route its success answer besides the errors', () => {
    for (const { method, path } of registeredRoutes()) {
      expect({ route: `${method} ${path}`, statuses: Object.keys(document.paths[path][method].responses) }).toEqual({
        route: `${method} ${path}`,
        statuses: expect.arrayContaining([expect.stringMatching(/^2\d\d$/)]),
      });
    }
  });

  it('lists the query parameters each route reads, all optional but the search text', () => {
    const query = (path: string, method: string) =>
      Object.fromEntries(
        (document.paths[path][method].parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, !!p.required]),
      );
    expect(query('/v1/orders/{orderId}', 'get')).toEqual({ minRevision: false });
    expect(query('/v1/orders/{orderId}/charge', 'post')).toEqual({ waitMs: false });
    expect(query('/v1/contacts/{source}/{sourceId}', 'get')).toEqual({ minRevision: false });
    expect(query('/v1/sync/runs', 'get')).toEqual({ status: false, limit: false, cursor: false });
    expect(query('/v1/audit/events', 'get')).toEqual({ after: false, limit: false });
    expect(query('/v1/audit/verify', 'get')).toEqual({ stream: false });
    expect(query('/v1/support/search', 'get')).toEqual({ q: true, cursor: false, limit: false });
    expect(query('/v1/support/reviews', 'get')).toEqual({ cursor: false, limit: false });
  });

  it('describes the paging of the support lists', () => {
    for (const path of ['/v1/support/search', '/v1/support/reviews']) {
      const { description } = document.paths[path].get;
      expect({ path, description }).toEqual({
        path,
        description: expect.stringMatching(/`total` counts every job.*`next` is the `cursor`/),
      });
    }
  });

  it('gives the charge route both its answers and its own refusal', () => {
    expect(Object.keys(document.paths['/v1/orders/{orderId}/charge'].post.responses)).toEqual(
      expect.arrayContaining(['200', '202', '422']),
    );
  });

  it('describes every error answer as application/problem+json, but readiness its own body', () => {
    for (const [path, pathItem] of Object.entries(document.paths)) {
      for (const operation of Object.values(pathItem)) {
        const errors = Object.entries(operation.responses).filter(([status]) => /^[45]/.test(status));
        expect(errors.map(([status]) => status)).toEqual(expect.arrayContaining(['4XX', '5XX']));
        for (const [status, response] of errors) {
          // A probe reads which check is down from readiness' 503 (documented-answers.e2e.spec.ts checks it).
          if (path === '/health/ready' && status === '503') continue;
          expect(response.content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
        }
      }
    }
  });

  it('describes a validated body with the rules the validation pipe applies', () => {
    const charge = document.components.schemas.ChargeRequestBody;
    expect(charge.required).toEqual(['amount', 'currency', 'customerId']);
    expect(charge.properties!.customerId).toMatchObject({ type: 'string', pattern: expect.any(String) });
    expect(charge.properties!.description).toEqual({ type: 'string', minLength: 1, maxLength: 500 });
  });

  it("states the charge's currency and amount as the configured service accepts them, not every ICU code and 1", () => {
    const { amount, currency } = document.components.schemas.ChargeRequestBody.properties!;
    // IDEM_CURRENCIES is EUR here: any other code is a 400, and Stripe's smallest EUR charge is 50 (€0.50).
    expect(currency).toMatchObject({ type: 'string', enum: ['EUR'], description: expect.stringContaining('IDEM_CURRENCIES: EUR') });
    expect(amount).toMatchObject({
      type: 'integer',
      minimum: 50,
      maximum: 99_999_999,
      description: expect.stringContaining('EUR 50–99999999'),
    });
  });

  it('is served without a token, like the Swagger UI at /docs', async () => {
    const ui = await harness.app.inject({ method: 'GET', url: '/docs' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/^text\/html/);
    expect(ui.body).toContain('swagger-ui');
    const assets = await harness.app.inject({ method: 'GET', url: '/docs/swagger-ui-bundle.js' });
    expect(assets.statusCode).toBe(200);
    expect((await harness.app.inject({ method: 'GET', url: '/docs/openapi.json', headers: auth('storefront') })).statusCode).toBe(200);
  });
});

describe('GET /docs/openapi.json of a service charging in other currencies', () => {
  // Body classes are shared by every api of a process; each document is built with its own api's configuration.
  it('names its own currencies and the smallest of their minimum charges, each currency with its own', async () => {
    const other = await startTestApp('openapi_currencies', { IDEM_CURRENCIES: 'GBP,HUF' });
    try {
      const served = (await other.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json<Document>();
      const { amount, currency } = served.components.schemas.ChargeRequestBody.properties!;
      expect(currency.enum).toEqual(['GBP', 'HUF']);
      expect(amount).toMatchObject({ minimum: 30, description: expect.stringContaining('GBP 30–99999999; HUF 17500–99999999') });
    } finally {
      await other.close();
    }
  });
});
