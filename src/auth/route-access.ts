/**
 * Who may call a route, as its decorators declare it (roles.ts), and the one decision taken on every
 * request to it: by the guard (bearer-token.guard.ts) and, before the body is read, by
 * access-before-body.ts.
 */
import type { Role } from '../config/bearer-tokens';
import { AppError } from '../errors/app-error';
import type { Caller } from './callers';
import { PUBLIC_KEY, ROLES_KEY } from './roles';

export type RouteAccess = readonly Role[] | 'public' | 'undeclared';

/** `@Roles` or `@Public` on the handler, else on its controller; neither is 'undeclared'. */
export function declaredAccess(handler: object, controller: object): RouteAccess {
  const declared = (key: string): unknown => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
  return (declared(ROLES_KEY) as Role[] | undefined) ?? (declared(PUBLIC_KEY) !== undefined ? 'public' : 'undeclared');
}

/**
 * The caller a request acts as on a route (none on a public one), or the refusal: 403 for a route that
 * declares nothing, 401 without a known token, 403 for a token of another role.
 */
export function admit(access: RouteAccess, caller: Caller | undefined): Caller | undefined {
  if (access === 'public') return undefined;
  if (access === 'undeclared') {
    throw new AppError('forbidden', 'AUTH.ROUTE_UNDECLARED', 'This route declares no access rule, so nobody may call it');
  }
  if (!caller) {
    throw new AppError('unauthenticated', 'AUTH.TOKEN_REQUIRED', 'A valid bearer token is required (Authorization: Bearer <token>)');
  }
  if (!access.includes(caller.role)) {
    throw new AppError(
      'forbidden',
      'AUTH.ROLE_FORBIDDEN',
      `The ${caller.role} role may not call this route (allowed: ${access.join(', ')})`,
    );
  }
  return caller;
}

/**
 * The `WWW-Authenticate` a 401 must carry (RFC 9110 §11.6.1): the Bearer scheme the routes take, and with
 * a bearer token the service does not know, RFC 6750's `invalid_token` (a client's OAuth library reads it
 * to ask for a new token instead of giving up).
 */
export function bearerChallenge(authorization: string | undefined): string {
  return /^Bearer +\S/i.test(authorization ?? '') ? 'Bearer realm="idem", error="invalid_token"' : 'Bearer realm="idem"';
}

/** Whether a refusal from `admit` is the 401, which carries the challenge. */
export const isMissingToken = (refusal: unknown): boolean => refusal instanceof AppError && refusal.kind === 'unauthenticated';
