/**
 * GET /v1/support/search?q=<customer or request id>: after a decline the order may be requested again by
 * another customer in another request (README "Payments", step 1), and its job then names only that
 * later request. The first customer asking "was I charged?" quotes their own customer id or their
 * request's X-Request-Id; either still finds the order, with the job's current status.
 */
import { randomUUID } from 'node:crypto';
import { paidOrder, requestCharge, startSupportCases, type SupportCases } from '../../../test/harness/support-cases';
import { auth } from '../../../test/harness/test-app';
import { waitUntil } from '../../../test/harness/wait-until';
import { chargeOrder, loadOrder } from '../../payments';

let cases: SupportCases;
beforeAll(async () => {
  // Each customer's saved card is charged, so one customer's card can decline and another's pay.
  cases = await startSupportCases('support_search_requests', { IDEM_PAYMENT_METHOD: 'saved_card' });
});
afterAll(() => cases.close());

const search = async (q: string) => {
  const answer = await cases.harness.app.inject({ url: `/v1/support/search?q=${encodeURIComponent(q)}`, headers: auth('support') });
  expect(answer.statusCode).toBe(200);
  return answer.json() as { results: Array<Record<string, unknown>>; total: number };
};

describe('GET /v1/support/search by the customer or request of an earlier request', () => {
  const declinedCustomer = `cus-${randomUUID()}`;
  const payingCustomer = `cus-${randomUUID()}`;
  const firstRequest = `req-${randomUUID()}`;
  const secondRequest = `req-${randomUUID()}`;
  let orderId: string;

  beforeAll(async () => {
    cases.harness.sandbox.createCustomer({ id: declinedCustomer, paymentMethod: 'pm_card_chargeDeclined' });
    cases.harness.sandbox.createCustomer({ id: payingCustomer, paymentMethod: 'pm_card_visa' });
    orderId = await requestCharge(cases.harness, { customerId: declinedCustomer, requestId: firstRequest });
    expect(await chargeOrder(cases.deps, orderId)).toBe('settled');
    expect((await loadOrder(cases.deps.store, orderId)).state.status).toBe('failed');
    await paidOrder(cases, { orderId, customerId: payingCustomer, requestId: secondRequest });
    // The job now shows the paying request: wait until the read models say so.
    await waitUntil(
      () => search(secondRequest),
      (found) => found.results.some((job) => job.status === 'done'),
      15_000,
    );
  });

  it.each([
    ['customer id', () => declinedCustomer],
    ['request id', () => firstRequest],
  ])('finds the order by the declined first request’s %s, with its current state', async (_, q) => {
    const found = await waitUntil(
      () => search(q()),
      (page) => page.results.length > 0,
      15_000,
    );
    expect(found.total).toBe(1);
    expect(found.results).toEqual([
      expect.objectContaining({ kind: 'charge-order', orderId, customerId: payingCustomer, requestId: secondRequest, status: 'done' }),
    ]);
  });

  it('still lists the order once for the customer and the request it now shows', async () => {
    for (const q of [payingCustomer, secondRequest]) {
      const found = await search(q);
      expect({ q, total: found.total, orders: found.results.map((job) => job.orderId) }).toEqual({ q, total: 1, orders: [orderId] });
    }
  });
});
