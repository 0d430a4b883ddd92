/** GET /v1/support/reviews and their count on /metrics: the cases waiting for a human, until someone resolves them. */
import { expectProblem } from '../../../test/harness/expect-problem';
import { orderInReview, paidOrder, startSupportCases, type SupportCases } from '../../../test/harness/support-cases';
import { auth } from '../../../test/harness/test-app';
import { waitUntil } from '../../../test/harness/wait-until';

let cases: SupportCases;
beforeAll(async () => {
  cases = await startSupportCases('support_reviews');
});
afterAll(() => cases.close());

const reviews = async (): Promise<Array<{ orderId?: string; jobId: string; kind: string }>> =>
  (await cases.harness.app.inject({ url: '/v1/support/reviews', headers: auth('support') })).json().results;

/** The value of `idem_support_needs_review_cases{kind="…"}` on /metrics (undefined when the series is missing). */
async function casesInReviewMetric(kind: string): Promise<number | undefined> {
  const text = (await cases.harness.app.inject({ url: '/metrics' })).body;
  const series = `idem_support_needs_review_cases{kind="${kind}"} `;
  const line = text.split('\n').find((l) => l.startsWith(series));
  return line === undefined ? undefined : Number(line.slice(series.length));
}

describe('GET /v1/support/reviews', () => {
  it('lists an order in review with its reason, not a paid one, and drops it once resolved', async () => {
    const paid = await paidOrder(cases);
    const inReview = await orderInReview(cases);
    const listed = await waitUntil(reviews, (jobs) => jobs.some((job) => job.orderId === inReview), 15_000);
    expect(listed.find((job) => job.orderId === inReview)).toMatchObject({
      kind: 'charge-order',
      status: 'needs_review',
      lastError: expect.stringContaining('succeeded payments'),
    });
    expect(listed.map((job) => job.orderId)).not.toContain(paid);
    const inReviewBefore = listed.filter((job) => job.kind === 'charge-order').length;
    expect(await casesInReviewMetric('charge-order')).toBe(inReviewBefore);
    expect(await casesInReviewMetric('import-run')).toBe(0);

    const resolved = await cases.harness.app.inject({
      method: 'POST',
      url: `/v1/support/orders/${inReview}/resolve`,
      headers: auth('support'),
      payload: { resolution: 'paid', note: 'refunded the duplicate' },
    });
    expect(resolved.statusCode).toBe(200);
    await waitUntil(reviews, (jobs) => !jobs.some((job) => job.orderId === inReview), 15_000);
    expect(await casesInReviewMetric('charge-order')).toBe(inReviewBefore - 1);
  });

  it('pages through every case in review: each exactly once by following next, as many as total and /metrics say', async () => {
    const ours = [await orderInReview(cases), await orderInReview(cases), await orderInReview(cases)];
    await waitUntil(reviews, (jobs) => ours.every((orderId) => jobs.some((job) => job.orderId === orderId)), 15_000);
    const page = async (query: string) => {
      const answer = await cases.harness.app.inject({ url: `/v1/support/reviews?limit=2${query}`, headers: auth('support') });
      expect(answer.statusCode).toBe(200);
      return answer.json<{ results: Array<{ jobId: string; orderId?: string }>; total: number; next: string | null }>();
    };
    const pages = [await page('')];
    while (pages.at(-1)!.next) pages.push(await page(`&cursor=${pages.at(-1)!.next}`));
    const paged = pages.flatMap((p) => p.results.map((job) => job.jobId));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.slice(0, -1).every((p) => p.results.length === 2)).toBe(true);
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged).toEqual(expect.arrayContaining(ours.map((orderId) => `charge-order:${orderId}`)));
    expect(pages.map((p) => p.total)).toEqual(pages.map(() => paged.length));
    expect(paged).toEqual((await reviews()).map((job) => job.jobId));
    expect(await casesInReviewMetric('charge-order')).toBe(paged.length);
  });

  it('refuses a limit above 200 with a 400 problem naming limit', async () => {
    const answer = await cases.harness.app.inject({ url: '/v1/support/reviews?limit=201', headers: auth('support') });
    expectProblem(answer, 400, 'REQUEST.INVALID');
    expect(answer.json().errors.map((e: { field: string }) => e.field)).toEqual(['limit']);
  });

  it('refuses a cursor naming a job id with NUL (which PostgreSQL cannot compare) with a 400 problem naming cursor', async () => {
    const cursor = Buffer.from('["2026-12-03T10:45:56.744Z","charge-order:a\\u0000b"]').toString('base64url');
    const answer = await cases.harness.app.inject({ url: `/v1/support/reviews?cursor=${cursor}`, headers: auth('support') });
    expectProblem(answer, 400, 'REQUEST.INVALID');
    expect(answer.json().errors.map((e: { field: string }) => e.field)).toEqual(['cursor']);
  });

  it('is for the support role only', async () => {
    expect((await cases.harness.app.inject({ url: '/v1/support/reviews', headers: auth('storefront') })).statusCode).toBe(403);
  });
});
