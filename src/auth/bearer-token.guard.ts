/**
 * `Authorization: Bearer <token>`; the token's role must be one the route allows. 401 without a
 * known token, 403 with a token of another role.
 */
import { createHash } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { Role, TokenRoles } from '../config/tokens';
import { AppError } from '../errors/app-error';
import { ROLES_KEY } from './roles';

export const TOKEN_ROLES = Symbol('TOKEN_ROLES');

export interface Caller {
  role: Role;
  /** A non-secret id for audit metadata: the first 8 characters of the token's hash. */
  tokenId: string;
}

@Injectable()
export class BearerTokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(TOKEN_ROLES) private readonly tokens: TokenRoles,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const allowed = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, [context.getHandler(), context.getClass()]);
    if (!allowed) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { caller?: Caller }>();
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
    const role = match ? this.tokens.get(match[1]) : undefined;
    if (!match || !role) {
      throw new AppError('unauthenticated', 'AUTH.TOKEN_REQUIRED', 'A valid bearer token is required (Authorization: Bearer <token>)');
    }
    if (!allowed.includes(role)) {
      throw new AppError('forbidden', 'AUTH.ROLE_FORBIDDEN', `The ${role} role may not call this route (allowed: ${allowed.join(', ')})`);
    }
    request.caller = { role, tokenId: tokenId(match[1]) };
    return true;
  }
}

function tokenId(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 8);
}
