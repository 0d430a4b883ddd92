/**
 * Liveness says the process answers; readiness says it can do its job: the database, the event store
 * and the job queue answer, and no live projection lags further behind the log than the configured
 * limit (IDEM_READY_MAX_PROJECTION_LAG) — past it, reads served from read models are too stale to trust.
 * Events held back by a transaction in flight are named in the body (`heldBack`), never a reason to be
 * down: every instance waits for the same transaction (held-back.notice.ts).
 */
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { IDEM_CONFIG, type IdemConfig } from '../config/config';
import { DATABASE_POOL } from '../database/database-pool';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { OBSERVED_PROJECTIONS } from '../metrics/observed-projections';
import type { Projection } from '../subscriptions/projection';
import { heldBackNotice } from './held-back.notice';
import { assertJobQueueAnswers } from './job-queue.check';
import { probe } from './probe';
import { assertProjectionsCurrent } from './projection-lag.check';
import { Public } from '../auth/roles';
import { LIVE_SCHEMA, READY_SCHEMA } from './health.schema';

@Public('probes of the platform, from inside the network')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(DATABASE_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(OBSERVED_PROJECTIONS) private readonly projections: Projection[],
    @Inject(IDEM_CONFIG) private readonly config: IdemConfig,
  ) {}

  @Get('live')
  @ApiResponse({ status: 200, description: 'The process answers.', schema: LIVE_SCHEMA })
  live() {
    return { status: 'up' };
  }

  @Get('ready')
  @ApiResponse({ status: 200, description: 'Every check is up.', schema: READY_SCHEMA })
  @ApiResponse({ status: 503, description: 'A check is down: the same body, naming it and why (not problem+json).', schema: READY_SCHEMA })
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const [database, eventStore, jobQueue, projectionLag, heldBack] = await Promise.all([
      probe(() => this.pool.query('SELECT 1')),
      probe(() => this.eventStore.ping()),
      probe(() => assertJobQueueAnswers(this.pool)),
      probe(() => assertProjectionsCurrent(this.eventStore, this.pool, this.projections, this.config.readiness.maxProjectionLagMs)),
      heldBackNotice(this.eventStore),
    ]);
    const checks = { database, eventStore, jobQueue, projectionLag };
    const ready = Object.values(checks).every((check) => check.status === 'up');
    void reply.status(ready ? 200 : 503);
    return { status: ready ? 'up' : 'down', checks, ...(heldBack && { heldBack }) };
  }
}
