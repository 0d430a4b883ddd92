/** GET /v1/support/reviews and their count on /metrics: the cases waiting for a human, until someone resolves them. */
import { orderInReview, paidOrder, startSupportCases, type SupportCases } from '../../../test/harness/support-cases';
import { auth } from '../../../test/harness/test-app';
import { waitUntil } from '../../../test/harness/wait-until';

let cases: SupportCases;
beforeAll(async () => {
  cases = await startSupportCases('support_reviews');
});
afterAll(() => cases.close());

const reviews = async (): Promise<Array<{ orderId?: string; kind: string }>> =>
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

  it('is for the support role only', async () => {
    expect((await cases.harness.app.inject({ url: '/v1/support/reviews', headers: auth('storefront') })).statusCode).toBe(403);
  });
});
