/**
 * The guard's decision (route-access.ts) taken in Fastify's onRequest hook, before the body is read: a
 * caller without a valid token is answered 401, and one whose token has another role 403, whatever it
 * sent — never 400 or 413 from parsing a body it had no right to send, and a large body is not awaited.
 * Each route carries its access in its Fastify route config, written from the same decorators the guard
 * reads; what carries none is no Nest route (an unknown path, the API docs) and is left to Fastify.
 */
import type { FastifyInstance } from 'fastify';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { TokenRoles } from '../config/bearer-tokens';
import { Callers } from './callers';
import { admit, bearerChallenge, declaredAccess, isMissingToken, type RouteAccess } from './route-access';

interface AccessConfig {
  access?: RouteAccess;
}

/**
 * Adds each handler's access to the route config Nest gives Fastify for it (beside a `@RouteConfig` of its
 * own). Call after the application is created and before it is initialised, when Nest registers its routes.
 */
export function declareRouteAccess(routes: Iterable<{ controller: object; handler: object }>): void {
  for (const { controller, handler } of routes) {
    const config = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as object | undefined;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...config, access: declaredAccess(handler, controller) }, handler);
  }
}

/** Install after the hooks that must see every request (request id, metrics): a refusal here ends it. */
export function checkAccessBeforeBody(instance: FastifyInstance, tokens: TokenRoles): void {
  const callers = new Callers(tokens);
  instance.addHook('onRequest', (request, reply, done) => {
    const { access } = request.routeOptions.config as AccessConfig;
    if (access === undefined) return done();
    try {
      admit(access, callers.of(request.headers.authorization));
      done();
    } catch (refusal) {
      if (isMissingToken(refusal)) void reply.header('www-authenticate', bearerChallenge(request.headers.authorization));
      done(refusal as Error);
    }
  });
}
