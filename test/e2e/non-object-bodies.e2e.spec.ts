/**
 * Every route that takes a body takes a JSON object. A body that is JSON but no object is answered
 * 400 REQUEST.INVALID on the field `body`, naming the shape expected (src/errors/json-object-body.ts),
 * not field by field as if it were an object lacking those fields; and nothing is written.
 */
import { auth, startTestApp, type TestApp } from '../harness/test-app';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('non_object_bodies');
});
afterAll(() => harness.close());

type Role = Parameters<typeof auth>[0];

const ROUTES: Array<[route: string, url: string, role: Role, shape: string]> = [
  ['POST /v1/sync/runs', '/v1/sync/runs', 'sync', '{source, since?}'],
  ['POST /v1/contacts/import', '/v1/contacts/import', 'sync', '{source, records}'],
  ['POST /v1/orders/{orderId}/charge', '/v1/orders/o-body/charge', 'storefront', '{amount, currency, customerId, description?}'],
  ['POST /v1/support/orders/{orderId}/resolve', '/v1/support/orders/o-body/resolve', 'support', '{resolution, note, acceptedAmount?}'],
];

const BODIES = ['[]', '[{"source":"crm"}]', '"crm"', '42', 'true', 'null'];

const CASES = ROUTES.flatMap(([route, url, role, shape]) => BODIES.map((body) => [route, body, url, role, shape] as const));

const eventCount = async () => Number((await harness.runtime.pool.query('SELECT count(*) AS n FROM idem_events')).rows[0].n);

describe('a JSON body that is not an object', () => {
  it.each(CASES)('%s refuses %s as a body that must be a JSON object, and writes nothing', async (_route, body, url, role, shape) => {
    const before = await eventCount();
    const response = await harness.app.inject({
      method: 'POST',
      url,
      headers: { ...auth(role), 'content-type': 'application/json' },
      body,
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({
      code: 'REQUEST.INVALID',
      errors: [{ field: 'body', message: `the body must be a JSON object ${shape}` }],
    });
    expect(await eventCount()).toBe(before);
  });
});
