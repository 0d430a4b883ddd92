/**
 * Deny by default (bearer-token.guard.ts): every route of the api declares who may call it, and one
 * that declares nothing is refused, not served.
 */
import { type ExecutionContext } from '@nestjs/common';
import { startTestApp, type TestApp } from '../../test/harness/test-app';
import { routeHandlers } from '../openapi/route-handlers';
import { BearerTokenGuard } from './bearer-token.guard';
import { PUBLIC_KEY, Public, ROLES_KEY, Roles } from './roles';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('route_access');
});
afterAll(() => harness.close());

describe('access to the routes', () => {
  it('is declared on every route of every feature and of the kernel: roles, or public with a reason', () => {
    const undeclared = routeHandlers(harness.app)
      .filter(({ controller, handler }) => {
        const declared = (key: string) => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
        return declared(ROLES_KEY) === undefined && declared(PUBLIC_KEY) === undefined;
      })
      .map(({ controller, methodName }) => `${controller.name}.${methodName}`);
    expect(undeclared).toEqual([]);
  });

  it('lets only the health, metrics, webhook and admin-page routes be called without a token', () => {
    const open = routeHandlers(harness.app)
      .filter(
        ({ controller, handler }) =>
          (Reflect.getMetadata(PUBLIC_KEY, handler) ?? Reflect.getMetadata(PUBLIC_KEY, controller)) !== undefined,
      )
      .map(({ controller }) => controller.name);
    expect([...new Set(open)].sort()).toEqual([
      'AdminScreenController',
      'HealthController',
      'MetricsController',
      'ReceiveWebhookController',
    ]);
  });
});

describe('BearerTokenGuard', () => {
  class Routes {
    undeclared() {}
    @Public('a test')
    open() {}
    @Roles('support')
    guarded() {}
  }
  const guard = new BearerTokenGuard(new Map([['a-support-token-of-16', 'support' as const]]));
  const contextFor = (method: keyof Routes, authorization?: string) =>
    ({
      getHandler: () => Routes.prototype[method],
      getClass: () => Routes,
      switchToHttp: () => ({ getRequest: () => ({ headers: authorization ? { authorization } : {} }) }),
    }) as unknown as ExecutionContext;

  it('refuses a route that declares nothing, even with a valid token', () => {
    expect(() => guard.canActivate(contextFor('undeclared', 'Bearer a-support-token-of-16'))).toThrow(
      expect.objectContaining({ code: 'AUTH.ROUTE_UNDECLARED' }),
    );
  });

  it('serves a public route without a token and a guarded one only with a token of its role', () => {
    expect(guard.canActivate(contextFor('open'))).toBe(true);
    expect(() => guard.canActivate(contextFor('guarded'))).toThrow(expect.objectContaining({ code: 'AUTH.TOKEN_REQUIRED' }));
    expect(guard.canActivate(contextFor('guarded', 'Bearer a-support-token-of-16'))).toBe(true);
  });
});
