/**
 * `Authorization: Bearer <token>`; the token's role must be one the route allows. 401 without a
 * known token, 403 with a token of another role. Deny by default: a route that declares neither
 * `@Roles` nor `@Public` (roles.ts) is refused with 403 AUTH.ROUTE_UNDECLARED, and the spec
 * src/auth/route-access.e2e.spec.ts fails for it, so a forgotten decorator closes a route instead of
 * opening it.
 */
import { hash } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { Role, TokenRoles } from '../config/bearer-tokens';
import { AppError } from '../errors/app-error';
import { PUBLIC_KEY, ROLES_KEY } from './roles';

export const TOKEN_ROLES = Symbol('TOKEN_ROLES');

export interface Caller {
  role: Role;
  /** A non-secret id for audit metadata: the first 8 characters of the token's hash. */
  tokenId: string;
}

@Injectable()
export class BearerTokenGuard implements CanActivate {
  /** Token → caller, hashed once at start: the tokens are fixed for the life of the process. */
  private readonly callers: Map<string, Caller>;
  /** Roles per route handler, read from its metadata on the first request (decorators never change). */
  private readonly allowedByHandler = new WeakMap<object, Role[] | 'public' | 'undeclared'>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(TOKEN_ROLES) tokens: TokenRoles,
  ) {
    this.callers = new Map([...tokens].map(([token, role]) => [token, Object.freeze({ role, tokenId: tokenId(token) })]));
  }

  canActivate(context: ExecutionContext): boolean {
    const allowed = this.allowedRoles(context);
    if (allowed === 'public') return true;
    if (allowed === 'undeclared') {
      throw new AppError('forbidden', 'AUTH.ROUTE_UNDECLARED', 'This route declares no access rule, so nobody may call it');
    }
    const request = context.switchToHttp().getRequest<FastifyRequest & { caller?: Caller }>();
    // The scheme is case-insensitive (RFC 9110 §11.1); the token is not.
    const match = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? '');
    const caller = match ? this.callers.get(match[1]) : undefined;
    if (!caller) {
      throw new AppError('unauthenticated', 'AUTH.TOKEN_REQUIRED', 'A valid bearer token is required (Authorization: Bearer <token>)');
    }
    if (!allowed.includes(caller.role)) {
      throw new AppError(
        'forbidden',
        'AUTH.ROLE_FORBIDDEN',
        `The ${caller.role} role may not call this route (allowed: ${allowed.join(', ')})`,
      );
    }
    request.caller = caller;
    return true;
  }

  private allowedRoles(context: ExecutionContext): Role[] | 'public' | 'undeclared' {
    const handler = context.getHandler();
    let allowed = this.allowedByHandler.get(handler);
    if (allowed === undefined) {
      const targets = [handler, context.getClass()];
      allowed =
        this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets) ??
        (this.reflector.getAllAndOverride<string | undefined>(PUBLIC_KEY, targets) !== undefined ? 'public' : 'undeclared');
      this.allowedByHandler.set(handler, allowed);
    }
    return allowed;
  }
}

function tokenId(token: string): string {
  return hash('sha256', token, 'hex').slice(0, 8);
}
