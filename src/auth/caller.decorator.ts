import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { CommandContext } from '../command-handling/handle-command';
import type { Caller } from './bearer-token.guard';

/**
 * The metadata every command's events carry: the request id (from `X-Request-Id` or made here) as
 * correlation and causation, and the authenticated actor.
 */
export const CommandMetadata = createParamDecorator((_: unknown, context: ExecutionContext): CommandContext['metadata'] => {
  const request = context.switchToHttp().getRequest<FastifyRequest & { caller?: Caller }>();
  const header = request.headers['x-request-id'];
  const requestId = typeof header === 'string' && /^[\x21-\x7e]{1,128}$/.test(header) ? header : randomUUID();
  const caller = request.caller ?? { role: 'anonymous', tokenId: 'none' };
  return { correlationId: requestId, causationId: requestId, requestId, actor: { role: caller.role, tokenId: caller.tokenId } };
});
