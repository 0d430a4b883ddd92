/**
 * GET /v1/support/search?q=pi_…: a customer quotes whichever payment their bank statement or email
 * shows, and it may not be the one the order's job holds — the declined first request of an order
 * paid later, or the second of two payments the provider holds for one order. Each finds the order,
 * before and after the read models are rebuilt.
 */
import { randomUUID } from 'node:crypto';
import { readModelsOf } from '../../../src/features/feature';
import { rebuildReadModels } from '../../../src/subscriptions/read-models/rebuild';
import { orderInReview, paidOrder, requestCharge, startSupportCases, type SupportCases } from '../../../test/harness/support-cases';
import { auth } from '../../../test/harness/test-app';
import { waitUntil } from '../../../test/harness/wait-until';
import { chargeOrder, loadOrder } from '../../payments';
import { isSucceededCharge } from '../../sandbox';

let cases: SupportCases;
beforeAll(async () => {
  // Each customer's saved card is charged, so a spec can make a card decline and then pay.
  cases = await startSupportCases('support_search_payments', { IDEM_PAYMENT_METHOD: 'saved_card' });
});
afterAll(() => cases.close());

const search = async (q: string) => {
  const answer = await cases.harness.app.inject({ url: `/v1/support/search?q=${encodeURIComponent(q)}`, headers: auth('support') });
  expect(answer.statusCode).toBe(200);
  return answer.json().results as Array<Record<string, unknown>>;
};
const ordersIn = (results: Array<Record<string, unknown>>) => results.map((job) => job.orderId);
/** The orders a search lists once it lists any: the read models follow what the test wrote a moment later. */
const ordersFoundBy = async (q: string) =>
  ordersIn(
    await waitUntil(
      () => search(q),
      (results) => results.length > 0,
      15_000,
    ),
  );

/** A customer whose saved card is one of Stripe's test cards (`pm_card_visa`, `pm_card_chargeDeclined`). */
function customerPayingWith(paymentMethod: string, customerId = `cus-${randomUUID()}`): string {
  cases.harness.sandbox.createCustomer({ id: customerId, paymentMethod });
  return customerId;
}

/** The first request declined (its intent `declinedIntent`), the customer changed card, the second paid. */
async function paidAfterADecline() {
  const customerId = customerPayingWith('pm_card_chargeDeclined');
  const orderId = await requestCharge(cases.harness, { customerId });
  expect(await chargeOrder(cases.deps, orderId)).toBe('settled');
  expect((await loadOrder(cases.deps.store, orderId)).state.status).toBe('failed');
  customerPayingWith('pm_card_visa', customerId);
  await paidOrder(cases, { orderId, customerId });
  const intents = cases.harness.sandbox.charges({ orderId });
  const declinedIntent = intents.find((intent) => !isSucceededCharge(intent))!.id;
  const paidIntent = intents.find(isSucceededCharge)!.id;
  return { orderId, declinedIntent, paidIntent };
}

/** The provider holds two succeeded payments for one order: the order is in review, with neither recorded as its payment. */
async function twoPaymentsAtTheProvider() {
  const orderId = await orderInReview(cases, { customerId: customerPayingWith('pm_card_visa') });
  const payments = cases.harness.sandbox.charges({ orderId }).filter(isSucceededCharge);
  expect(payments).toHaveLength(2);
  return { orderId, intents: payments.map((payment) => payment.id) };
}

describe('GET /v1/support/search by any payment id an order involved', () => {
  let declined: Awaited<ReturnType<typeof paidAfterADecline>>;
  let doubled: Awaited<ReturnType<typeof twoPaymentsAtTheProvider>>;
  beforeAll(async () => {
    declined = await paidAfterADecline();
    doubled = await twoPaymentsAtTheProvider();
  });

  it("finds an order paid on its second request by the declined first request's intent", async () => {
    expect(await ordersFoundBy(declined.declinedIntent)).toEqual([declined.orderId]);
    const [job] = await search(declined.declinedIntent);
    expect(job).toMatchObject({ kind: 'charge-order', orderId: declined.orderId, status: 'done' });
    expect(await search(declined.paidIntent)).toEqual([job]);
  });

  it('finds an order whose provider holds two payments by either intent', async () => {
    for (const q of doubled.intents) expect({ q, found: await ordersFoundBy(q) }).toEqual({ q, found: [doubled.orderId] });
    expect(await search(doubled.intents[1])).toEqual([expect.objectContaining({ orderId: doubled.orderId, status: 'needs_review' })]);
  });

  it('answers the same after the read models are rebuilt', async () => {
    const ids = [declined.declinedIntent, declined.paidIntent, ...doubled.intents];
    const before = await Promise.all(ids.map(ordersFoundBy));
    expect(before).toEqual([[declined.orderId], [declined.orderId], [doubled.orderId], [doubled.orderId]]);
    const { eventStore: store, pool } = cases.harness.runtime;

    const switched = await rebuildReadModels({ store, pool, models: readModelsOf(cases.harness.features) });

    expect(switched.every((result) => result.to === 2)).toBe(true);
    expect(await Promise.all(ids.map(async (q) => ordersIn(await search(q))))).toEqual(before);
  });
});
