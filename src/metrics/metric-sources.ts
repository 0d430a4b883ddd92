/**
 * Metrics read from the database when /metrics is scraped (projection lag, job-queue depth, a
 * feature's counts): a source that cannot be read leaves its series out of that scrape and is counted
 * in `idem_metrics_source_errors_total{source}`, and the scrape still answers with everything else.
 * The counter lives in prom-client's global registry so that features' own collectors count their
 * failures in the same series as the kernel's (src/metrics/metrics-registry.ts serves both). The
 * kernel reads its sources before rendering, so their failures count in the same scrape; a feature's
 * collector runs while the scrape renders, so its failure shows from the next scrape on.
 */
import { Logger } from '@nestjs/common';
import { Counter } from 'prom-client';

const logger = new Logger('Metrics');

const sourceErrors = new Counter({
  name: 'idem_metrics_source_errors_total',
  help: 'Scrapes that could not read a source (job_queue, projection_lag, support_jobs…); its series are missing from that scrape.',
  labelNames: ['source'],
});

/** `read()`, or undefined (counted and logged) when it fails. */
export async function readMetricSource<T>(source: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    sourceErrors.inc({ source });
    logger.warn(`metrics: could not read ${source}: ${(error as Error).message}`);
    return undefined;
  }
}
