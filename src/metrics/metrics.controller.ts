/**
 * GET /metrics — Prometheus text exposition, no auth (like the health routes: scrape it from inside
 * the network). Projection lag and job-queue depth are read from the shared database at scrape time,
 * so an api without an in-process worker reports them too. Every source of a scrape is read side by
 * side under the scrape's one deadline; a scrape that cannot reach the database still answers by then
 * with everything else, marks what it missed in `idem_metrics_source_stale` and counts it in
 * `idem_metrics_source_errors_total` (metric-sources.ts).
 */
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { Gauge, type Registry } from 'prom-client';
import { DATABASE_POOL } from '../database/database-pool';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import type { Projection } from '../subscriptions/projection';
import { formatLagMetrics, measureLag } from '../subscriptions/projection-lag';
import { readJobQueueDepth } from './job-queue-depth';
import { beginMetricScrape, readMetricSource } from './metric-sources';
import { exposition, METRICS_REGISTRY } from './metrics-registry';
import { OBSERVED_PROJECTIONS } from './observed-projections';
import { Public } from '../auth/roles';

/** Pending events counted per projection per scrape; beyond it the lag in seconds tells the story. */
const LAG_COUNT_CAP = 1_000;

@Public('scraped by Prometheus from inside the network')
@Controller('metrics')
export class MetricsController {
  private readonly jobQueue: Gauge<'task' | 'state'>;

  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @Inject(DATABASE_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(OBSERVED_PROJECTIONS) private readonly projections: Projection[],
  ) {
    this.jobQueue = new Gauge({
      name: 'idem_job_queue_jobs',
      help: 'Jobs in the queue by task and state (ready, scheduled for a later retry, running, failed for good).',
      labelNames: ['task', 'state'],
      registers: [registry],
      // Read as the scrape renders, beside the other sources: unreadable, it has no series this scrape.
      async collect() {
        const depth = await readMetricSource('job_queue', () => readJobQueueDepth(pool));
        this.reset();
        for (const { task, state, jobs } of depth ?? []) this.set({ task, state }, jobs);
      },
    });
    if (store.heldBackSince) {
      const heldBackSince = store.heldBackSince.bind(store);
      new Gauge({
        name: 'idem_event_store_held_back_seconds',
        help:
          'Age of the oldest event written but not yet readable by any projection: a transaction still in flight in ' +
          'the PostgreSQL cluster holds it back (0 when none). Alert when it stays above a minute: projections and ' +
          'charge jobs wait for it, while their lag, which counts what they could read, stays 0.',
        registers: [registry],
        async collect() {
          // Unreadable, it has no series this scrape (idem_metrics_source_stale says so); none held back is 0.
          const read = await readMetricSource('event_store_horizon', async () => ({ since: await heldBackSince() }));
          this.reset();
          if (read) this.set(read.since ? Math.max(0, (Date.now() - read.since.getTime()) / 1000) : 0);
        },
      });
    }
  }

  @Get()
  async metrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const scrape = beginMetricScrape();
    try {
      // The lag beside the registries' rendering, whose collectors (the job queue's, the features') read theirs.
      const [lags, rendered] = await Promise.all([
        readMetricSource('projection_lag', () => measureLag(this.store, this.pool, this.projections, { maxCount: LAG_COUNT_CAP })),
        exposition(this.registry),
      ]);
      void reply.header('content-type', this.registry.contentType);
      return rendered + (lags ? formatLagMetrics(lags) : '') + (await scrape.outcome());
    } finally {
      scrape.end();
    }
  }
}
