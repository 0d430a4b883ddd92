/**
 * /metrics while PostgreSQL stops answering: the api's connections go through a proxy that black-holes
 * (accepts and never forwards), as a paused server or a partition would. Every source of the scrape
 * (the kernel's projection lag and job-queue depth, a feature's gauge of the cases in review) shares
 * one deadline: the scrape answers by then with what it has, and says which sources are missing.
 */
import { startTestApp, type TestApp } from '../../test/harness/test-app';
import { createTestDatabase } from '../../test/harness/test-database';
import { waitUntil } from '../../test/harness/wait-until';
import { startBlackHoleProxy, type BlackHoleProxy } from '../../test/harness/black-hole-proxy';
import { METRIC_SCRAPE_DEADLINE_MS } from './metric-sources';

/** Timers fire late on a busy machine; an answer later than this past the deadline is a second wait. */
const SLACK_MS = 1_500;
/** Longer than the scrape's deadline, so that no statement gives up on its own before it. */
const STATEMENT_DEADLINE_MS = METRIC_SCRAPE_DEADLINE_MS + 2_000;

describe('GET /metrics when PostgreSQL stops answering', () => {
  let proxy: BlackHoleProxy;
  let harness: TestApp;

  const scrape = async () => {
    const started = Date.now();
    const response = await harness.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    return { text: response.body, ms: Date.now() - started };
  };
  const sample = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  const stale = (text: string, source: string) => sample(text, `idem_metrics_source_stale{source="${source}"}`);
  const readiness = () => harness.app.inject({ method: 'GET', url: '/health/ready' });

  beforeAll(async () => {
    proxy = await startBlackHoleProxy(await createTestDatabase('metrics_stalled'));
    harness = await startTestApp('metrics_stalled', {
      DATABASE_URL: proxy.url,
      IDEM_DB_QUERY_DEADLINE: `${STATEMENT_DEADLINE_MS}ms`,
      IDEM_DB_CONNECT_TIMEOUT: `${STATEMENT_DEADLINE_MS}ms`,
    });
  });
  afterAll(async () => {
    proxy?.forward();
    await harness?.close();
    await proxy?.close();
  });

  it('marks every source as read while the database answers', async () => {
    const { text } = await scrape();
    expect(stale(text, 'projection_lag')).toBe(0);
    expect(stale(text, 'job_queue')).toBe(0);
    expect(stale(text, 'support_jobs')).toBe(0);
    expect(text).toContain('idem_support_needs_review_cases{kind="charge-order"} 0');
  });

  describe('while the proxy black-holes', () => {
    beforeAll(() => proxy.blackHole());
    afterAll(async () => {
      proxy.forward();
      await waitUntil(readiness, (answer) => answer.statusCode === 200, 20_000);
    });

    it('answers within one deadline for all of its sources, with what it has, the missing sources marked stale in that very scrape', async () => {
      const { text, ms } = await scrape();
      expect(ms).toBeGreaterThanOrEqual(METRIC_SCRAPE_DEADLINE_MS - 50);
      expect(ms).toBeLessThan(METRIC_SCRAPE_DEADLINE_MS + SLACK_MS);
      expect(text).toContain('process_cpu_user_seconds_total');
      expect(text).not.toContain('idem_projection_lag_seconds{');
      expect(text).not.toContain('idem_job_queue_jobs{');
      expect(text).not.toContain('idem_support_needs_review_cases{');
      expect(stale(text, 'projection_lag')).toBe(1);
      expect(stale(text, 'job_queue')).toBe(1);
      expect(stale(text, 'support_jobs')).toBe(1);
      expect(sample(text, 'idem_metrics_source_errors_total{source="support_jobs"}')).toBeGreaterThanOrEqual(1);
    });
  });
});
