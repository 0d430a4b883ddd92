import Stripe from 'stripe';
import { chargeParams, control, failureOf, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

describe('GET /v1/payment_intents/search', () => {
  let t: SandboxUnderTest;
  beforeEach(async () => {
    t = await startSandbox({ searchLagMs: 0 });
  });
  afterEach(() => t.sandbox.close());

  it("finds every intent of an order by metadata['order_id'], newest first, and nothing of other orders", async () => {
    const declined = await failureOf(t.stripe.paymentIntents.create(chargeParams('481', { payment_method: 'pm_card_chargeDeclined' })));
    const succeeded = await t.stripe.paymentIntents.create(chargeParams('481'));
    await t.stripe.paymentIntents.create(chargeParams('4810'));

    const result = await t.stripe.paymentIntents.search({ query: "metadata['order_id']:'481'" });

    expect(result).toMatchObject({ object: 'search_result', has_more: false, url: '/v1/payment_intents/search' });
    expect(result.data.map((intent) => intent.id)).toEqual([succeeded.id, declined.payment_intent?.id]);
  });

  it('accepts the double-quoted form of the same query', async () => {
    const intent = await t.stripe.paymentIntents.create(chargeParams('77'));

    const result = await t.stripe.paymentIntents.search({ query: 'metadata["order_id"]:"77"' });

    expect(result.data.map((found) => found.id)).toEqual([intent.id]);
  });

  it('answers an empty result for an order the provider never saw', async () => {
    const result = await t.stripe.paymentIntents.search({ query: "metadata['order_id']:'nope'" });

    expect(result.data).toEqual([]);
  });

  it.each([["status:'succeeded'"], ["metadata['order_id']:'1' AND status:'succeeded'"], ['amount>100']])(
    'refuses the unsupported query %s with 400',
    async (query) => {
      const error = await failureOf(t.stripe.paymentIntents.search({ query }));

      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 400, param: 'query' });
    },
  );
});

describe('GET /v1/payment_intents/search paging', () => {
  let t: SandboxUnderTest;
  beforeEach(async () => {
    t = await startSandbox({ searchLagMs: 0 });
  });
  afterEach(() => t.sandbox.close());

  it('answers limit intents with has_more and a next_page that leads to the rest', async () => {
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await t.stripe.paymentIntents.create(chargeParams('pg'))).id);

    const first = await t.stripe.paymentIntents.search({ query: "metadata['order_id']:'pg'", limit: 2 });
    const second = await t.stripe.paymentIntents.search({ query: "metadata['order_id']:'pg'", limit: 2, page: first.next_page! });

    expect(first).toMatchObject({ has_more: true, next_page: expect.any(String) });
    expect(second).toMatchObject({ has_more: false, next_page: null });
    expect([...first.data, ...second.data].map((intent) => intent.id)).toEqual([...created].reverse());
  });

  it('refuses a limit outside 1..100', async () => {
    const error = await failureOf(t.stripe.paymentIntents.search({ query: "metadata['order_id']:'pg'", limit: 101 }));

    expect(error).toMatchObject({ statusCode: 400, param: 'limit' });
  });
});

describe('GET /v1/payment_intents/search lag', () => {
  let t: SandboxUnderTest;
  let now: number;
  beforeEach(async () => {
    now = Date.UTC(2026, 0, 15, 12, 0, 0);
    t = await startSandbox({ clock: () => now });
  });
  afterEach(() => t.sandbox.close());

  it('finds a new intent only once the lag (default: a minute) has passed, while retrieve sees it at once', async () => {
    const intent = await t.stripe.paymentIntents.create(chargeParams('lag'));
    const search = () => t.stripe.paymentIntents.search({ query: "metadata['order_id']:'lag'" });

    expect((await search()).data).toEqual([]);
    expect((await t.stripe.paymentIntents.retrieve(intent.id)).id).toBe(intent.id);
    now += 59_999;
    expect((await search()).data).toEqual([]);
    now += 1;
    expect((await search()).data.map((found) => found.id)).toEqual([intent.id]);
  });

  it('shows an updated intent with its old status until the change has propagated; the control API sets the lag', async () => {
    await control(t.sandbox, 'POST', '/_sandbox/search', { lagMs: 1000 });
    const intent = await t.stripe.paymentIntents.create(chargeParams('lag2', { payment_method: 'pm_successDelayed_de' }));
    now += 1000;
    t.sandbox.settle(intent.id, 'succeeded');
    const statuses = async () =>
      (await t.stripe.paymentIntents.search({ query: "metadata['order_id']:'lag2'" })).data.map((found) => found.status);

    expect(await statuses()).toEqual(['processing']);
    now += 1000;
    expect(await statuses()).toEqual(['succeeded']);
  });
});
