/**
 * `Authorization: Bearer <token>`; the token's role must be one the route allows. 401 without a
 * known token, 403 with a token of another role. Deny by default: a route that declares neither
 * `@Roles` nor `@Public` (roles.ts) is refused with 403 AUTH.ROUTE_UNDECLARED, and the spec
 * src/auth/route-access.e2e.spec.ts fails for it, so a forgotten decorator closes a route instead of
 * opening it. The api takes the same decision before a body is read (access-before-body.ts); this
 * guard still decides for every handler Nest runs, and hands the caller to it.
 */
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { TokenRoles } from '../config/bearer-tokens';
import { type Caller, Callers } from './callers';
import { admit, declaredAccess, type RouteAccess } from './route-access';

export const TOKEN_ROLES = Symbol('TOKEN_ROLES');

@Injectable()
export class BearerTokenGuard implements CanActivate {
  private readonly callers: Callers;
  /** Access per route handler, read from its metadata on the first request (decorators never change). */
  private readonly accessByHandler = new WeakMap<object, RouteAccess>();

  constructor(@Inject(TOKEN_ROLES) tokens: TokenRoles) {
    this.callers = new Callers(tokens);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest & { caller?: Caller }>();
    const caller = admit(this.accessTo(context), this.callers.of(request.headers.authorization));
    if (caller) request.caller = caller;
    return true;
  }

  private accessTo(context: ExecutionContext): RouteAccess {
    const handler = context.getHandler();
    let access = this.accessByHandler.get(handler);
    if (access === undefined) {
      access = declaredAccess(handler, context.getClass());
      this.accessByHandler.set(handler, access);
    }
    return access;
  }
}
