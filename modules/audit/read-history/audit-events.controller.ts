/**
 * GET /v1/audit/events?after=&limit= (auditor): the global history, paged, each event with the chain
 * hash the audit chain recorded for it (null while the projector has not linked it yet). JSON
 * `{events, next}`, or NDJSON — one event per line, `next` in the `Idem-Next-After` header — when
 * the client asks for `application/x-ndjson` (weighed by q-values, wants-ndjson.ts). `next` is null when the page was not full: the end of
 * history for now; poll again with the last event's position.
 */
import { ApiQuery, ApiResponse } from '@nestjs/swagger';
import { Controller, Get, Headers, Inject, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { Roles } from '../../../src/auth/roles';
import { DATABASE_POOL } from '../../../src/database/database-pool';
import { EVENT_STORE, type EventStore } from '../../../src/event-store/event-store.port';
import { entryKey, readChainHashes } from '../../../projections/audit-chain/audit-chain.queries';
import { parseHistoryPageQuery } from './history-page-query';
import { wantsNdjson } from './wants-ndjson';
import { HISTORY_NDJSON_SCHEMA, HISTORY_PAGE_SCHEMA } from '../audit-answers.schema';

export const NDJSON = 'application/x-ndjson';

@Controller('v1/audit')
export class AuditEventsController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE_POOL) private readonly pool: Pool,
  ) {}

  @Get('events')
  @Roles('auditor')
  @ApiResponse({
    status: 200,
    description: 'A page of the history, oldest first: JSON, or NDJSON when the client asks for application/x-ndjson.',
    content: { 'application/json': { schema: HISTORY_PAGE_SCHEMA }, [NDJSON]: { schema: HISTORY_NDJSON_SCHEMA } },
  })
  @ApiQuery({
    name: 'after',
    required: false,
    schema: { type: 'string' },
    description: 'The `next` of the previous page (a position): events after it.',
  })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 }, description: 'Events per page.' })
  async events(
    @Query('after') after: unknown,
    @Query('limit') limit: unknown,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const query = parseHistoryPageQuery(after, limit);
    const page = await this.store.readAll({ after: query.after, maxCount: query.limit });
    const chained = await readChainHashes(this.pool, page);
    const events = page.map((event) => {
      const entry = chained.get(entryKey(event.stream, event.revision));
      const { position, stream, revision, id, type, data, metadata, created } = event;
      return { position, stream, revision, id, type, data, metadata, created, chainHash: entry?.eventId === id ? entry.chainHash : null };
    });
    const next = events.length === query.limit ? events.at(-1)!.position : null;
    // Caches keep one answer per Accept: the same URL answers JSON or NDJSON.
    void reply.header('vary', 'Accept');
    if (!wantsNdjson(accept)) return { events, next };
    void reply.header('content-type', NDJSON);
    if (next) void reply.header('idem-next-after', next);
    return events.map((event) => `${JSON.stringify(event)}\n`).join('');
  }
}
