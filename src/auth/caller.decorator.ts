import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { CommandContext } from '../command-handling/handle-command';
import type { Caller } from './callers';

/**
 * The metadata every command's events carry: the request id (`X-Request-Id`, see http-edge.ts) as
 * correlation and causation, and the authenticated actor.
 */
export const CommandMetadata = createParamDecorator((_: unknown, context: ExecutionContext): CommandContext['metadata'] => {
  const request = context.switchToHttp().getRequest<FastifyRequest & { caller?: Caller }>();
  // The caller's X-Request-Id or one made for it (src/bootstrap/http-edge.ts); the answer carries it too.
  const requestId = request.id;
  const caller = request.caller ?? { role: 'anonymous', tokenId: 'none' };
  return { correlationId: requestId, causationId: requestId, requestId, actor: { role: caller.role, tokenId: caller.tokenId } };
});
