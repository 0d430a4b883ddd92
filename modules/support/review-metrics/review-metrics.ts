/**
 * `idem_support_needs_review_cases{kind}` on /metrics: the cases waiting for a human (DESIGN.md §7.5,
 * the stop rules' alert), counted from the support_jobs read model when /metrics is scraped. A stop
 * rule fires in whichever process ran the job — often a worker with no HTTP port of its own — so a
 * counter in that process could not be scraped; the read model is shared, and the gauge also falls
 * back to 0 once support resolves the case. Alert on `idem_support_needs_review_cases > 0`.
 *
 * Registered in prom-client's global registry, which the kernel's /metrics serves beside its own.
 */
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Gauge, register } from 'prom-client';
import type { SupportJobQueries } from '../../../projections/support-jobs/support-jobs.queries';
import type { SupportJobKind } from '../../../projections/support-jobs/support-jobs.entity';
import { readMetricSource } from '../../../src/metrics/metric-sources';
import { SUPPORT_JOBS } from '../support-jobs.provider';

export const NEEDS_REVIEW_GAUGE = 'idem_support_needs_review_cases';

/** Every kind is reported, at 0 when none waits, so an alert rule never sees the series vanish. */
const KINDS: SupportJobKind[] = ['charge-order', 'import-run'];

@Injectable()
export class ReviewMetrics implements OnModuleDestroy {
  private readonly gauge: Gauge<'kind'>;

  constructor(@Inject(SUPPORT_JOBS) queries: SupportJobQueries) {
    // One api per process in production; tests start several one after another, and the newest counts.
    register.removeSingleMetric(NEEDS_REVIEW_GAUGE);
    this.gauge = new Gauge({
      name: NEEDS_REVIEW_GAUGE,
      help: 'Support cases waiting for a human decision (needs_review), by kind of job, from the support_jobs read model.',
      labelNames: ['kind'],
      async collect() {
        const cases = await readMetricSource('support_jobs', () => queries.needingReviewByKind());
        this.reset();
        // Unreadable: no series this scrape (an alert on absence notices), rather than a false 0 or a failed scrape.
        if (!cases) return;
        const counts = new Map(cases.map(({ kind, cases }) => [kind, cases]));
        for (const kind of KINDS) this.set({ kind }, counts.get(kind) ?? 0);
      },
    });
  }

  onModuleDestroy(): void {
    if (register.getSingleMetric(NEEDS_REVIEW_GAUGE) === this.gauge) register.removeSingleMetric(NEEDS_REVIEW_GAUGE);
  }
}
