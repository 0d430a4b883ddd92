/** GET /v1/support/reviews: the cases waiting for a human, until someone resolves them. */
import { orderInReview, paidOrder, startSupportCases, type SupportCases } from '../../../test/harness/support-cases';
import { auth } from '../../../test/harness/test-app';
import { waitUntil } from '../../../test/harness/wait-until';

let cases: SupportCases;
beforeAll(async () => {
  cases = await startSupportCases('support_reviews');
});
afterAll(() => cases.close());

const reviews = async (): Promise<Array<{ orderId?: string }>> =>
  (await cases.harness.app.inject({ url: '/v1/support/reviews', headers: auth('support') })).json().results;

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

    const resolved = await cases.harness.app.inject({
      method: 'POST',
      url: `/v1/support/orders/${inReview}/resolve`,
      headers: auth('support'),
      payload: { resolution: 'paid', note: 'refunded the duplicate' },
    });
    expect(resolved.statusCode).toBe(200);
    await waitUntil(reviews, (jobs) => !jobs.some((job) => job.orderId === inReview), 15_000);
  });

  it('is for the support role only', async () => {
    expect((await cases.harness.app.inject({ url: '/v1/support/reviews', headers: auth('storefront') })).statusCode).toBe(403);
  });
});
