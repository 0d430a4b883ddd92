/**
 * GET /v1/support/overview — the admin screen's header: how many duplicates Idem absorbed, and how far
 * the read models this screen reads lag behind the log (a case may be newer than what search shows).
 */
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { importEventsReadModel } from '../../../projections/import-events/import-events.projector';
import { ordersReadModel } from '../../../projections/orders/orders.projector';
import { supportJobsReadModel } from '../../../projections/support-jobs/support-jobs.projector';
import { Roles } from '../../../src/auth/roles';
import { DATABASE_POOL } from '../../../src/database/database-pool';
import { READ_MODEL_DATA_SOURCE } from '../../../src/database/data-source';
import { EVENT_STORE, type EventStore } from '../../../src/event-store/event-store.port';
import { answerWithin } from '../../../src/health/answer-within';
import { measureLag } from '../../../src/subscriptions/projection-lag';
import { readModelProjection } from '../../../src/subscriptions/read-models/read-model.projection';
import { importRecordsAbsorbed } from './duplicates-absorbed';
import { ReplayedAnswers } from './replayed-answers';
import { OVERVIEW_SCHEMA } from '../support-answers.schema';

const SCREEN_READ_MODELS = [supportJobsReadModel, ordersReadModel, importEventsReadModel].map(readModelProjection);
/** Past this many pending events the screen shows "≥ 1000": counting further would make the header slow. */
const LAG_COUNT_CAP = 1000;
/**
 * How long the header waits for the lag. Found black-box on EventStoreDB: with the server not answering
 * the route held for over a minute, and the screen's header showed "…" all that time.
 */
export const LAG_WAIT_MS = 3_000;

@Controller('v1/support/overview')
export class ShowOverviewController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE_POOL) private readonly pool: Pool,
    @Inject(READ_MODEL_DATA_SOURCE) private readonly readModels: DataSource,
    private readonly replayed: ReplayedAnswers,
  ) {}

  @Get()
  @ApiResponse({ status: 200, description: 'Duplicates absorbed, and how far the lists lag behind the log.', schema: OVERVIEW_SCHEMA })
  @Roles('support')
  async overview() {
    // The lag is read from the event store: one that does not answer leaves the header without it
    // (`projections: null`, `projectionsError`) instead of holding the screen's first request open.
    const lags = await answerWithin(measureLag(this.store, this.pool, SCREEN_READ_MODELS, { maxCount: LAG_COUNT_CAP }), LAG_WAIT_MS).catch(
      (error: Error) => error,
    );
    const duplicatesAbsorbed = {
      replayedAnswers: { count: this.replayed.total, since: this.replayed.since.toISOString() },
      importRecords: await importRecordsAbsorbed(this.readModels),
    };
    if (lags instanceof Error) return { duplicatesAbsorbed, projections: null, projectionsError: lags.message };
    return {
      duplicatesAbsorbed,
      projections: lags
        .filter((lag) => lag.state === 'live')
        .map(({ name, version, lagEvents, lagEventsAtLeast, lagSeconds }) => ({ name, version, lagEvents, lagEventsAtLeast, lagSeconds })),
    };
  }
}
