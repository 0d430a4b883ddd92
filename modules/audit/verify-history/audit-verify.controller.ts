/**
 * GET /v1/audit/verify?stream= (auditor): recompute the hash chain of one stream, or of the whole
 * history with its seals when `stream` is omitted, and report the first break. A break is a finding,
 * not an error: the answer is 200 with `ok: false`.
 */
import { ApiQuery, ApiResponse } from '@nestjs/swagger';
import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { Roles } from '../../../src/auth/roles';
import { DATABASE_POOL } from '../../../src/database/database-pool';
import { EVENT_STORE, type EventStore } from '../../../src/event-store/event-store.port';
import { AppError } from '../../../src/errors/app-error';
import { idPattern } from '../../../src/errors/business-key';
import type { VerifyReport } from './chain-break';
import { verifyHistory, verifyStream } from './verify-history';
import { ClientLeft } from '../../../src/errors/client-left';
import { VERIFY_REPORT_SCHEMA } from '../audit-answers.schema';

const STREAM_NAME = idPattern(200);

@Controller('v1/audit')
export class AuditVerifyController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE_POOL) private readonly pool: Pool,
  ) {}

  @Get('verify')
  @Roles('auditor')
  @ApiResponse({
    status: 200,
    description: 'The report: ok, or where the history first differs from what was chained.',
    schema: VERIFY_REPORT_SCHEMA,
  })
  @ApiQuery({
    name: 'stream',
    required: false,
    schema: { type: 'string' },
    description: 'One stream; without it, the whole history and its seals.',
  })
  async verify(@Query('stream') stream: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<VerifyReport> {
    const deps = { store: this.store, pool: this.pool };
    if (stream === undefined) return verifyHistory(deps, abortedWhenClientLeaves(reply));
    if (typeof stream !== 'string' || !STREAM_NAME.test(stream))
      throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', {
        errors: [{ field: 'stream', message: 'stream must be a stream name: 1–200 characters of A–Z, a–z, 0–9, _ . : -' }],
      });
    return verifyStream(deps, stream);
  }
}

/**
 * The whole-history walk has no bound of its own (large histories are for `idem audit verify`, see
 * docs/AUDIT.md): once the client is gone, nobody will read the answer, so the walk stops. The
 * response closes early only when the connection went away before the answer was sent.
 */
function abortedWhenClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new ClientLeft('the verification'));
  });
  return controller.signal;
}
