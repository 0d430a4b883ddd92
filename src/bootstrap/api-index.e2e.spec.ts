/**
 * The api's bare address, which the banner prints, answered 404 ROUTE.NOT_FOUND. It now says where
 * the API's description, docs, health, metrics and admin screen are, and sends a browser to the admin screen.
 */
import { startTestApp, type TestApp } from '../../test/harness/test-app';
import { apiIndex } from './api-index';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('api_index');
});
afterAll(() => harness.close());

const get = (url: string, headers: Record<string, string> = {}) => harness.app.inject({ method: 'GET', url, headers });

describe('GET /', () => {
  it('answers an API client with a JSON index whose every link is served', async () => {
    const response = await get('/', { accept: 'application/json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    const index = response.json<{ service: string; api: string; links: Record<string, string> }>();
    expect(index).toMatchObject({ service: 'idem', api: 'v1' });
    expect(Object.keys(index.links).sort()).toEqual(['admin', 'docs', 'live', 'metrics', 'openapi', 'ready'].sort());
    for (const [name, path] of Object.entries(index.links)) {
      const linked = await get(path);
      // Readiness may be 503 on a test database without a worker; it is served all the same.
      expect({ name, status: linked.statusCode }).toEqual({ name, status: name === 'ready' ? expect.any(Number) : 200 });
      expect(linked.statusCode).not.toBe(404);
    }
  });

  it('answers curl (any type) with the same index, needing no token', async () => {
    const response = await get('/', { accept: '*/*' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(apiIndex(() => true));
  });

  it('sends a browser to the admin screen', async () => {
    const response = await get('/', { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/admin');
  });
});

describe('apiIndex', () => {
  it('lists only the links whose route is registered', () => {
    const index = apiIndex((path) => path !== '/admin');
    expect(index.links).not.toHaveProperty('admin');
    expect(index.links).toHaveProperty('openapi', '/docs/openapi.json');
  });
});
