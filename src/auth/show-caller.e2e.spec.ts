/**
 * GET /v1/auth/caller: which role a token has, for a client (the admin screen) that must choose what to
 * show without trying routes until one does not answer 403.
 */
import { auth, startTestApp, type TestApp } from '../../test/harness/test-app';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('show_caller');
});
afterAll(() => harness.close());

describe('GET /v1/auth/caller', () => {
  it.each(['storefront', 'sync', 'support', 'auditor'] as const)('answers a %s token with its role and token id', async (role) => {
    const answer = await harness.app.inject({ url: '/v1/auth/caller', headers: auth(role) });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ role, tokenId: expect.stringMatching(/^[0-9a-f]{8}$/) });
  });

  it('answers no token, or one it does not know, 401 with the Bearer challenge', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token-of-this-service' }]) {
      const answer = await harness.app.inject({ url: '/v1/auth/caller', headers });
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toMatchObject({ code: 'AUTH.TOKEN_REQUIRED' });
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="idem"/);
    }
  });

  it('refuses a query parameter, as every api route does', async () => {
    const answer = await harness.app.inject({ url: '/v1/auth/caller?role=support', headers: auth('auditor') });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errors).toEqual([{ field: 'role', message: 'property role should not exist' }]);
  });
});
