/**
 * GET /v1/auth/caller — the role and token id the request's bearer token stands for. A client that
 * adapts to its user (the admin screen shows support or audit) asks once, instead of trying each role's
 * routes until one does not answer 403 (a failed load in the browser's console every time).
 */
import { Controller, Get, Req } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Caller } from './callers';
import { Roles } from './roles';
import { CALLER_SCHEMA } from './caller.schema';

@Controller('v1/auth')
export class ShowCallerController {
  @Get('caller')
  @ApiResponse({ status: 200, description: 'The role and token id of the bearer token sent.', schema: CALLER_SCHEMA })
  @Roles('storefront', 'sync', 'support', 'auditor')
  caller(@Req() request: FastifyRequest & { caller?: Caller }): Caller {
    // The guard admitted the request, so it set the caller: every role may call this route.
    const { role, tokenId } = request.caller!;
    return { role, tokenId };
  }
}
