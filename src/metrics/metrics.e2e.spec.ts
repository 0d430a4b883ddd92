import { randomUUID } from 'node:crypto';
import { SupportJobQueries } from '../../projections/support-jobs/support-jobs.queries';
import { auth, startTestApp, type TestApp } from '../../test/harness/test-app';
import { waitUntilSettled } from '../../test/harness/settled-history';
import { waitUntilHeldBackFor, whileTransactionHeldOpen } from '../../test/harness/held-transaction';
import { METRIC_SOURCE_TIMEOUT_MS } from './metric-sources';

/** The api alone, as in production: no worker in this process, so nothing here runs projections or jobs. */
let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('metrics');
});
afterAll(() => harness.close());

const scrape = async () => {
  const response = await harness.app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
};

/** The value of one sample line, e.g. `idem_http_requests_total{method="GET",…}`. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('GET /metrics', () => {
  it('answers without a token, with the process metrics', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it("serves the features' own metrics beside the kernel's: the stop rules' alerts and the cases in review", async () => {
    const text = await scrape();
    expect(sample(text, 'idem_needs_review_alerts_total')).toBe(0);
    expect(sample(text, 'idem_second_charges_total')).toBe(0);
    expect(sample(text, 'idem_support_needs_review_cases{kind="charge-order"}')).toBe(0);
    expect(sample(text, 'idem_support_needs_review_cases{kind="import-run"}')).toBe(0);
  });

  it('counts requests by route template and status, never by raw URL', async () => {
    const orderId = `ord-${randomUUID()}`;
    await harness.app.inject({ method: 'GET', url: `/v1/orders/${orderId}`, headers: auth('support') });
    await harness.app.inject({ method: 'GET', url: `/v1/orders/${orderId}` });
    await harness.app.inject({ method: 'GET', url: `/no/such/${orderId}` });
    const text = await scrape();
    expect(text).not.toContain(orderId);
    expect(sample(text, 'idem_http_requests_total{method="GET",route="/v1/orders/:orderId",status="404"}')).toBe(1);
    expect(sample(text, 'idem_http_requests_total{method="GET",route="/v1/orders/:orderId",status="401"}')).toBe(1);
    expect(sample(text, 'idem_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'idem_http_request_duration_seconds_count{method="GET",route="/v1/orders/:orderId",status="404"}')).toBe(1);
  });

  it('reports each projection lagging behind an event no worker has processed yet', async () => {
    const orderId = `ord-${randomUUID()}`;
    const charge = await harness.app.inject({
      method: 'POST',
      url: `/v1/orders/${orderId}/charge`,
      headers: auth('storefront'),
      payload: { amount: 1250, currency: 'EUR', customerId: 'cus_42' },
    });
    expect(charge.statusCode).toBe(202);
    // The lag counts settled history only, which another test file's open transaction holds back.
    await waitUntilSettled(harness.runtime.pool);
    const text = await scrape();
    expect(sample(text, 'idem_projection_lag_events{projection="orders",version="1",state="live"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'idem_projection_lag_seconds{projection="orders",version="1",state="live"}')).toBeGreaterThan(0);
  });

  it('reports how long a transaction in flight has held written events back from every projection', async () => {
    // A session left in a transaction after a write (a psql in BEGIN, say): the lag above stays 0 meanwhile.
    await whileTransactionHeldOpen(harness.runtime.pool, async () => {
      const charge = await harness.app.inject({
        method: 'POST',
        url: `/v1/orders/ord-${randomUUID()}/charge`,
        headers: auth('storefront'),
        payload: { amount: 1250, currency: 'EUR', customerId: 'cus_42' },
      });
      expect(charge.statusCode).toBe(202);
      // Its age is counted in whole milliseconds: wait until one has passed.
      await waitUntilHeldBackFor(harness.runtime.eventStore, 1);
      expect(sample(await scrape(), 'idem_event_store_held_back_seconds')).toBeGreaterThan(0);
    });
  });

  it('reports the job queue depth by task and state, read from the shared database', async () => {
    await harness.runtime.pool.query(`SELECT graphile_worker.add_job('metrics-probe', '{}'::json)`);
    await harness.runtime.pool.query(`SELECT graphile_worker.add_job('metrics-probe', '{}'::json, run_at => now() + interval '1 hour')`);
    const text = await scrape();
    expect(sample(text, 'idem_job_queue_jobs{task="metrics-probe",state="ready"}')).toBe(1);
    expect(sample(text, 'idem_job_queue_jobs{task="metrics-probe",state="scheduled"}')).toBe(1);
  });

  it('still answers when the database cannot be read, and counts what it could not read', async () => {
    const query = jest.spyOn(harness.runtime.pool, 'query').mockRejectedValue(new Error('connection refused') as never);
    const readModel = jest.spyOn(SupportJobQueries.prototype, 'needingReviewByKind').mockRejectedValue(new Error('connection refused'));
    try {
      const text = await scrape();
      expect(text).toContain('process_cpu_user_seconds_total');
      expect(text).not.toContain('idem_job_queue_jobs{');
      expect(text).not.toContain('idem_support_needs_review_cases{');
      expect(sample(text, 'idem_metrics_source_errors_total{source="job_queue"}')).toBe(1);
      // A feature's collector runs while the scrape renders, so its failure shows from the next scrape on.
      expect(sample(await scrape(), 'idem_metrics_source_errors_total{source="support_jobs"}')).toBeGreaterThanOrEqual(1);
    } finally {
      query.mockRestore();
      readModel.mockRestore();
    }
  });

  it('answers in time for Prometheus when the event store does not answer, leaving the lag out and counting it', async () => {
    // Found black-box on EventStoreDB (the server paused): the scrape waited ~14 s for the client to
    // give up on the lag read, past Prometheus' default 10 s scrape timeout, which drops the whole scrape.
    const lagErrors = () => sample(text, 'idem_metrics_source_errors_total{source="projection_lag"}') ?? 0;
    let text = await scrape();
    const before = lagErrors();
    const readAll = jest.spyOn(harness.runtime.eventStore, 'readAll').mockReturnValue(new Promise(() => undefined));
    const started = Date.now();
    try {
      text = await scrape();
    } finally {
      readAll.mockRestore();
    }
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(METRIC_SOURCE_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(10_000);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).not.toContain('idem_projection_lag_seconds{');
    expect(lagErrors()).toBe(before + 1);
  });
});
