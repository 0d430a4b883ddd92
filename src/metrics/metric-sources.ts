/**
 * Metrics read from the database when /metrics is scraped (projection lag, job-queue depth, a
 * feature's counts): a source that cannot be read leaves its series out of that scrape, is marked
 * `idem_metrics_source_stale{source} 1` in it and counted in `idem_metrics_source_errors_total{source}`,
 * and the scrape still answers with everything else. Features' collectors read their sources through
 * {@link readMetricSource} too, so that their failures count in the same series as the kernel's.
 *
 * Every source of a scrape shares the scrape's one deadline (METRIC_SCRAPE_DEADLINE_MS from its start):
 * the kernel's sources and the features' collectors are read side by side, and a source that has not
 * answered by then is left behind. Before, the kernel's sources waited their own 4 s, then a feature's
 * collector 4 s more: a scrape during a PostgreSQL stall took 8 s of Prometheus' default 10.
 */
import { Logger } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';
import { answerWithin } from '../health/answer-within';

const logger = new Logger('Metrics');

/** Rendered at the end of each scrape (metricScrapeOutcome), once this scrape's failures are counted. */
const sourceErrors = new Counter({
  name: 'idem_metrics_source_errors_total',
  help: 'Scrapes that could not read a source (job_queue, projection_lag, support_jobs…); its series are missing from that scrape.',
  labelNames: ['source'],
  registers: [],
});

/**
 * How long one scrape may wait for its sources, all of them together. Prometheus gives a whole scrape
 * 10 s by default and drops every series of a scrape that takes longer. Found black-box on
 * EventStoreDB: with the server not answering, the lag read waited for the client to give up (about
 * 14 s), and the scrape lost everything.
 */
export const METRIC_SCRAPE_DEADLINE_MS = 4_000;

/** How long a read outside any scrape waits (a collector rendered by someone else than /metrics). */
export const METRIC_SOURCE_TIMEOUT_MS = METRIC_SCRAPE_DEADLINE_MS;

/** One scrape of /metrics in progress: its deadline, and which sources it read or missed. */
export class MetricScrape {
  readonly deadline: number;
  private readonly stale = new Map<string, boolean>();

  constructor(deadlineMs: number) {
    this.deadline = Date.now() + deadlineMs;
  }

  record(source: string, read: boolean): void {
    // A source read twice in one scrape is stale if either read missed.
    this.stale.set(source, this.stale.get(source) === true || !read);
  }

  /** Prometheus text of the scrape's outcome: the error counts (its own included) and the sources it read (0) or missed (1). */
  async outcome(): Promise<string> {
    const errors = new Registry();
    errors.registerMetric(sourceErrors);
    const stale = [...this.stale].map(([source, missed]) => `idem_metrics_source_stale{source="${source}"} ${missed ? 1 : 0}`);
    if (stale.length === 0) return errors.metrics();
    const help = "1 when a source could not be read by this scrape's deadline (its series are missing from it), 0 when it was read.";
    return [
      await errors.metrics(),
      `# HELP idem_metrics_source_stale ${help}`,
      '# TYPE idem_metrics_source_stale gauge',
      ...stale,
      '',
    ].join('\n');
  }

  /** From now on, reads no longer share this scrape's deadline. */
  end(): void {
    openScrapes.delete(this);
  }
}

/** The scrapes in progress. Two that overlap (two Prometheus servers) both learn of every read, under the earlier deadline. */
const openScrapes = new Set<MetricScrape>();

/** Opens a scrape: every source read until its `end()` shares its deadline. */
export function beginMetricScrape(deadlineMs = METRIC_SCRAPE_DEADLINE_MS): MetricScrape {
  const scrape = new MetricScrape(deadlineMs);
  openScrapes.add(scrape);
  return scrape;
}

/**
 * `read()`, or undefined (counted, logged and marked stale) when it fails or has not answered by the
 * earliest deadline of the scrapes in progress (`timeoutMs` when none is); a read left behind goes on
 * unwatched, and its answer is dropped.
 */
export async function readMetricSource<T>(
  source: string,
  read: () => Promise<T>,
  timeoutMs = METRIC_SOURCE_TIMEOUT_MS,
): Promise<T | undefined> {
  const scrapes = [...openScrapes];
  const now = Date.now();
  const limitMs = Math.max(0, Math.min(timeoutMs, ...scrapes.map((scrape) => scrape.deadline - now)));
  try {
    // A read that throws at once fails like one that rejects.
    const value = await answerWithin(Promise.resolve().then(read), limitMs);
    for (const scrape of scrapes) scrape.record(source, true);
    return value;
  } catch (error) {
    sourceErrors.inc({ source });
    for (const scrape of scrapes) scrape.record(source, false);
    logger.warn(`metrics: could not read ${source}: ${(error as Error).message}`);
    return undefined;
  }
}
