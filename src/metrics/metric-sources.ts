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
import { answerWithin } from '../health/answer-within';

const logger = new Logger('Metrics');

const sourceErrors = new Counter({
  name: 'idem_metrics_source_errors_total',
  help: 'Scrapes that could not read a source (job_queue, projection_lag, support_jobs…); its series are missing from that scrape.',
  labelNames: ['source'],
});

/**
 * How long a scrape waits for one source. Prometheus gives a whole scrape 10 s by default and drops
 * every series of a scrape that takes longer; the kernel's sources are read side by side, a feature's
 * collector after them, so two waits must fit. Found black-box on EventStoreDB: with the server not
 * answering, the lag read waited for the client to give up (about 14 s), and the scrape lost everything.
 */
export const METRIC_SOURCE_TIMEOUT_MS = 4_000;

/**
 * `read()`, or undefined (counted and logged) when it fails or has not answered within `timeoutMs`;
 * a read left behind goes on unwatched, and its answer is dropped.
 */
export async function readMetricSource<T>(
  source: string,
  read: () => Promise<T>,
  timeoutMs = METRIC_SOURCE_TIMEOUT_MS,
): Promise<T | undefined> {
  try {
    // A read that throws at once fails like one that rejects.
    return await answerWithin(Promise.resolve().then(read), timeoutMs);
  } catch (error) {
    sourceErrors.inc({ source });
    logger.warn(`metrics: could not read ${source}: ${(error as Error).message}`);
    return undefined;
  }
}
