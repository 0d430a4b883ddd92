/**
 * GET /v1/contacts/{source}/{sourceId}, …/events (the stream) and …/imports (every import that
 * touched the record, from the import_events read model, paged as the run list is: `limit`, and
 * `cursor` = the previous page's `next`; a record touched by thousands of runs answered all of them). Served from the `contacts` read model; when it
 * has no row or is behind `?minRevision=` (the revision an import answered with), the contact is
 * folded from its stream instead, so a caller always reads its own writes. A deleted contact is 404.
 */
import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { Pool } from 'pg';
import { Roles } from '../../../src/auth/roles';
import { DATABASE_POOL } from '../../../src/database/database-pool';
import { EVENT_STORE } from '../../../src/event-store/event-store.port';
import { AppError } from '../../../src/errors/app-error';
import { assertBusinessKey } from '../../../src/errors/business-key';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { contactStream, type ContactEvent } from '../contact.events';
import { evolveContact, initialContactState } from '../contact.state';
import { toContactView, type ContactView } from '../contact.view';
import { isKnownSource } from '../contact-sources';
import { findContactRow, findImportTrail, type ImportTrail } from './contact-read-model';
import { decodeTrailCursor } from './trail-cursor';
import { parsePageQuery } from '../page-query';
import { toStreamEventView } from '../../../src/event-store/stream-event-view';
import { MinRevisionQuery } from '../../../src/openapi/min-revision-query';
import { CONTACT_EVENTS_SCHEMA, CONTACT_VIEW_SCHEMA, IMPORT_TRAIL_SCHEMA } from '../contact.view.schema';

/** Rows of a record's import trail per page: as the run list's page (GET /v1/sync/runs). */
const DEFAULT_TRAIL = 100;
const MAX_TRAIL = 1000;

@Controller('v1/contacts')
export class GetContactController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE_POOL) private readonly pool: Pool,
  ) {}

  @Get(':source/:sourceId')
  @ApiResponse({ status: 200, description: 'The contact as last imported.', schema: CONTACT_VIEW_SCHEMA })
  @Roles('sync', 'support', 'auditor')
  @MinRevisionQuery()
  async getContact(
    @Param('source') source: string,
    @Param('sourceId') sourceId: string,
    @Query('minRevision') minRevision?: string,
  ): Promise<ContactView> {
    checkKey(source, sourceId);
    const least = parseMinRevision(minRevision);
    const row = await findContactRow(this.pool, source, sourceId);
    if (row && row.revision >= least) return row;
    const events = await this.store.readStream(contactStream(source, sourceId));
    const state = events.reduce((s, e) => evolveContact(s, e as unknown as ContactEvent), initialContactState());
    if (!state.exists || state.deleted || !state.current) throw notFound(source, sourceId, state.deleted);
    return toContactView(source, sourceId, { ...state, current: state.current });
  }

  @Get(':source/:sourceId/events')
  @ApiResponse({ status: 200, description: "The contact stream's events, oldest first.", schema: CONTACT_EVENTS_SCHEMA })
  @Roles('support', 'auditor')
  async getContactEvents(@Param('source') source: string, @Param('sourceId') sourceId: string) {
    checkKey(source, sourceId);
    const events = await this.store.readStream(contactStream(source, sourceId));
    if (events.length === 0) throw notFound(source, sourceId, false);
    return {
      source,
      sourceId,
      events: events.map(toStreamEventView),
    };
  }

  /** Every import that touched the record — imported, skipped as stale, duplicate, … — and why (import_events), a page at a time. */
  @Get(':source/:sourceId/imports')
  @ApiResponse({ status: 200, description: 'Every import that touched the record, and why: one page.', schema: IMPORT_TRAIL_SCHEMA })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_TRAIL, default: DEFAULT_TRAIL } })
  @ApiQuery({ name: 'cursor', required: false, schema: { type: 'string' }, description: 'The `next` of the previous page.' })
  @Roles('sync', 'support', 'auditor')
  async getImportTrail(
    @Param('source') source: string,
    @Param('sourceId') sourceId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<{ source: string; sourceId: string; imports: ImportTrail[]; next: string | null }> {
    checkKey(source, sourceId);
    const { limit, after, errors } = parsePageQuery(query, {
      parameters: ['limit', 'cursor'],
      defaultLimit: DEFAULT_TRAIL,
      maxLimit: MAX_TRAIL,
      decode: decodeTrailCursor,
    });
    if (errors.length) throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', { errors });
    return { source, sourceId, ...(await findImportTrail(this.pool, source, sourceId, { limit, after })) };
  }
}

function checkKey(source: string, sourceId: string): void {
  if (!isKnownSource(source))
    throw new AppError('not_found', 'CONTACTS.UNKNOWN_SOURCE', `No contact source is configured under the name ${source}`, { source });
  assertBusinessKey('sourceId', sourceId);
}

function parseMinRevision(raw: string | undefined): number {
  if (raw === undefined) return -1;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', {
      errors: [{ field: 'minRevision', message: 'minRevision must be a non-negative integer' }],
    });
  }
  return Number(raw);
}

function notFound(source: string, sourceId: string, deleted: boolean): AppError {
  const message = deleted
    ? `Contact ${source}.${sourceId} was deleted at its source`
    : `No contact ${source}.${sourceId} was ever imported`;
  return new AppError('not_found', 'CONTACT.NOT_FOUND', message, { source, sourceId, deleted });
}
