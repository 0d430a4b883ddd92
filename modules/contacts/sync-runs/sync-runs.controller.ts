/**
 * POST /v1/sync/runs starts a pull run against a configured source and drives it in this process
 * (a worker resumes it if this process dies). GET /v1/sync/runs/{runId} folds the run's stream, so it
 * is always current (callers poll it while a run goes on): cold, from its last page's totals on
 * (run-folds.ts: stateAtLastTotals); then only what was appended since it was last read. GET /v1/sync/runs?status= reads the
 * sync_runs read model (pull and file runs; `status=failed` is a 400 saying why: listed-statuses.ts), which the workers' projection runner keeps: it lags the streams by the
 * runner's delay — milliseconds while a worker runs, longer while one catches up after a start or a
 * rebuild, indefinitely while none runs. A run started or ended within that lag is missing from the
 * list or listed with its previous status and counts; its own GET already shows it. The list is paged
 * (`limit`, and `cursor` = the previous page's `next`, the sort key of its last run: run-cursor.ts); an
 * unknown query parameter is a 400 naming it (as the support job search refuses one), not silently
 * ignored, and so is a cursor this service did not write.
 */
import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBody, ApiHeader, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { Pool } from 'pg';
import { listRuns, runKeyOf, type RunKey } from '../../../projections/sync-runs/sync-runs.queries';
import { CommandMetadata } from '../../../src/auth/caller.decorator';
import { Roles } from '../../../src/auth/roles';
import { DATABASE_POOL } from '../../../src/database/database-pool';
import { EVENT_STORE } from '../../../src/event-store/event-store.port';
import type { CommandContext } from '../../../src/command-handling/handle-command';
import { AppError } from '../../../src/errors/app-error';
import { parseIdempotencyKey } from '../../../src/errors/idempotency-key';
import { WrongExpectedVersion } from '../../../src/event-store/errors';
import { assertJsonObjectBody } from '../../../src/errors/json-object-body';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { parsePageQuery, type FieldError } from '../page-query';
import { LISTED_STATUSES, unlistedStatusReason, type ListedStatus } from './listed-statuses';
import { assertPullableSource, sourceNotAString } from '../contact-sources';
import { CONTACT_SOURCES_PORT, type ContactSources } from '../contact-source/contact-source.port';
import { loadRun } from '../pull-run/drive-run';
import { ApiRunDrivers } from './api-run-drivers';
import { decodeRunCursor, encodeRunCursor, RUN_ID } from './run-cursor';
import { keyedPullRunId, startPullRun } from '../pull-run/start-run';
import { toRunView, type RunView } from '../import-run.view';
import { isIsoDateTime } from '../import-contact/iso-date-time';
import { RUN_LIST_SCHEMA, RUN_VIEW_SCHEMA } from './run-view.schema';

const DEFAULT_LISTED = 100;
const MAX_LISTED = 1000;
const LIST_PARAMETERS = ['status', 'limit', 'cursor'];

@Controller('v1/sync/runs')
export class SyncRunsController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CONTACT_SOURCES_PORT) private readonly sources: ContactSources,
    @Inject(DATABASE_POOL) private readonly pool: Pool,
    private readonly drivers: ApiRunDrivers,
  ) {}

  @Post()
  @Roles('sync')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['source'],
      properties: { source: { type: 'string', example: 'crm' }, since: { type: 'string', format: 'date-time' } },
    },
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'A repeat with the same key (and token) answers the run the first request started, with Idempotent-Replayed: true, ' +
      'and starts no other; another body is 422 IDEMPOTENCY_KEY.REUSED.',
  })
  @ApiResponse({
    status: 202,
    description: 'The run, started (or the one a repeat of the Idempotency-Key started).',
    schema: RUN_VIEW_SCHEMA,
  })
  @HttpCode(202)
  async start(
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKeyHeader: string | undefined,
    @CommandMetadata() metadata: CommandContext['metadata'],
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RunView> {
    const idempotencyKey = parseIdempotencyKey(idempotencyKeyHeader);
    const { source, since } = parseStart(body);
    assertPullableSource(source, this.sources);
    // With an Idempotency-Key the run's id is the key's (per token), so a repeat finds the run the first
    // request started instead of starting another pull of the whole source.
    const keyedRunId = idempotencyKey === undefined ? undefined : keyedPullRunId(metadata.actor.tokenId, idempotencyKey);
    const replay = async (runId: string) => {
      const earlier = await loadRun(this.store, runId);
      if (earlier.started?.source !== source || !sameInstant(earlier.started?.since, since)) throw keyReused();
      void reply.header('idempotent-replayed', 'true');
      return toRunView(earlier);
    };
    if (keyedRunId !== undefined && (await loadRun(this.store, keyedRunId)).exists) return replay(keyedRunId);
    let runId: string;
    try {
      runId = await startPullRun(
        this.store,
        this.sources,
        { source, startedBy: metadata.actor.role, ...(since ? { since } : {}) },
        metadata,
        keyedRunId,
      );
    } catch (error) {
      // A concurrent request under the same key started it first.
      if (keyedRunId !== undefined && error instanceof WrongExpectedVersion) return replay(keyedRunId);
      throw error;
    }
    this.drivers.drive(runId, metadata);
    return toRunView(await loadRun(this.store, runId));
  }

  @Get(':runId')
  @Roles('sync', 'support')
  @ApiResponse({ status: 200, description: 'The run, folded from its stream.', schema: RUN_VIEW_SCHEMA })
  async get(@Param('runId') runId: string): Promise<RunView> {
    if (!RUN_ID.test(runId)) throw notFound(runId);
    // A run this process has not loaded comes from its last page's totals and what follows them (about
    // a page read), not from a fold of its whole stream, one event per record (run-folds.ts).
    const run = await loadRun(this.store, runId);
    if (!run.exists) throw notFound(runId);
    return toRunView(run);
  }

  @Get()
  @Roles('sync', 'support')
  @ApiQuery({
    name: 'status',
    required: false,
    enum: LISTED_STATUSES,
    description:
      'Only runs with this status. `failed` is a 400: only pushed batches (POST /v1/contacts/import) end failed, and ' +
      'they are not listed; a pull or file run that cannot go on stops as needs_review.',
  })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_LISTED, default: DEFAULT_LISTED } })
  @ApiQuery({ name: 'cursor', required: false, schema: { type: 'string' }, description: 'The `next` of the previous page.' })
  @ApiResponse({ status: 200, description: 'Pull and file runs, newest first, from the sync_runs read model.', schema: RUN_LIST_SCHEMA })
  async list(@Query() query: Record<string, unknown>): Promise<{ runs: RunView[]; next: string | null }> {
    const { status, limit, after } = parseListQuery(query);
    const runs = await listRuns(this.pool, { status, limit, after });
    // A full page may have more after it; a short one is the end for now.
    return { runs, next: runs.length === limit ? encodeRunCursor(runKeyOf(runs.at(-1)!)) : null };
  }
}

const invalidQuery = (errors: FieldError[]) => new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', { errors });

function parseListQuery(query: Record<string, unknown>): { status?: ListedStatus; limit: number; after?: RunKey } {
  const { limit, after, errors } = parsePageQuery(query, {
    parameters: LIST_PARAMETERS,
    defaultLimit: DEFAULT_LISTED,
    maxLimit: MAX_LISTED,
    decode: decodeRunCursor,
  });
  const { status } = query;
  const unlisted = status === undefined ? undefined : unlistedStatusReason(status);
  if (unlisted) errors.push({ field: 'status', message: unlisted });
  if (errors.length) throw invalidQuery(errors);
  return { status: status as ListedStatus | undefined, limit, after };
}

/** `since` as asked the first time and now: the same instant however spelled (`…Z`, `….000Z`, `+01:00`), or neither given. */
const sameInstant = (first: string | undefined, again: string | undefined) =>
  first === again || (first !== undefined && again !== undefined && Date.parse(first) === Date.parse(again));

function parseStart(body: unknown): { source: string; since?: string } {
  assertJsonObjectBody(body, '{source, since?}');
  const errors = Object.keys(body)
    .filter((k) => k !== 'source' && k !== 'since')
    .map((field) => ({ field, message: `${field} is not a known field` }));
  if (typeof body.source !== 'string') errors.push(sourceNotAString(body.source));
  if (body.since !== undefined && !isIsoDateTime(body.since))
    errors.push({ field: 'since', message: 'since must be an ISO-8601 date-time such as 2026-12-01T10:00:00Z' });
  if (errors.length) throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', { errors });
  return { source: body.source as string, ...(body.since ? { since: body.since as string } : {}) };
}

const keyReused = () =>
  new AppError('unprocessable', 'IDEMPOTENCY_KEY.REUSED', 'This Idempotency-Key was already used with a different request body', {});

const notFound = (runId: string) => new AppError('not_found', 'SYNC.RUN_NOT_FOUND', `No import run ${runId}`, { runId });
