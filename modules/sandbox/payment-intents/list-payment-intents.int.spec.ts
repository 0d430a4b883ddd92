/**
 * GET /v1/payment_intents through the official SDK: a customer's intents, newest first, filtered by
 * creation time, paged by `starting_after` (the SDK's auto-pagination), and — unlike search — showing
 * an intent the moment it exists.
 */
import type Stripe from 'stripe';
import { stripeValidator } from '../contract/stripe-schemas';
import { chargeParams, failureOf, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

const paymentIntent = stripeValidator('payment_intent');
let now = Date.UTC(2026, 11, 1, 12);
let t: SandboxUnderTest;
beforeEach(async () => {
  t = await startSandbox({ clock: () => now }); // search lags by its default minute
  for (const id of ['cus_a', 'cus_b', 'cus_r', 'cus_p']) t.sandbox.createCustomer({ id });
});
afterEach(() => t.sandbox.close());

describe('GET /v1/payment_intents', () => {
  it("lists a customer's intents at once, newest first, declined ones included, while search does not show them yet", async () => {
    const declined = await failureOf(
      t.stripe.paymentIntents.create(chargeParams('l1', { customer: 'cus_a', payment_method: 'pm_card_chargeDeclined' })),
    );
    const paid = await t.stripe.paymentIntents.create(chargeParams('l2', { customer: 'cus_a' }));
    await t.stripe.paymentIntents.create(chargeParams('l3', { customer: 'cus_b' }));

    const listed = await t.stripe.paymentIntents.list({ customer: 'cus_a' });

    expect(listed).toMatchObject({ object: 'list', has_more: false, url: '/v1/payment_intents' });
    expect(listed.data.map((intent) => intent.id)).toEqual([paid.id, declined.payment_intent?.id]);
    expect(listed.data.map((intent) => intent.status)).toEqual(['succeeded', 'requires_payment_method']);
    for (const intent of listed.data) expect(paymentIntent(intent)).toBe(true);
    expect((await t.stripe.paymentIntents.search({ query: "metadata['order_id']:'l2'" })).data).toEqual([]);
  });

  it('keeps only the intents created in the asked time range', async () => {
    const early = await t.stripe.paymentIntents.create(chargeParams('r1', { customer: 'cus_r' }));
    now += 10_000;
    const late = await t.stripe.paymentIntents.create(chargeParams('r2', { customer: 'cus_r' }));

    const since = async (created: Record<string, number>) =>
      (await t.stripe.paymentIntents.list({ customer: 'cus_r', created })).data.map((intent) => intent.id);

    expect(await since({ gte: late.created })).toEqual([late.id]);
    expect(await since({ gt: early.created })).toEqual([late.id]);
    expect(await since({ lt: late.created })).toEqual([early.id]);
    expect(await since({ gte: early.created, lte: late.created })).toEqual([late.id, early.id]);
  });

  it('pages with limit and starting_after, which the SDK follows to the end', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await t.stripe.paymentIntents.create(chargeParams(`p${i}`, { customer: 'cus_p' }))).id);

    const first = await t.stripe.paymentIntents.list({ customer: 'cus_p', limit: 2 });
    expect(first.data.map((intent) => intent.id)).toEqual([created[4], created[3]]);
    expect(first.has_more).toBe(true);

    const all: string[] = [];
    for await (const intent of t.stripe.paymentIntents.list({ customer: 'cus_p', limit: 2 })) all.push(intent.id);
    expect(all).toEqual([...created].reverse());

    const before = await t.stripe.paymentIntents.list({ customer: 'cus_p', limit: 2, ending_before: created[1] });
    expect(before.data.map((intent) => intent.id)).toEqual([created[3], created[2]]);
    expect(before.has_more).toBe(true);
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
    [{ starting_after: 'pi_unknown' }, 'starting_after'],
    [{ status: 'succeeded' }, 'status'],
  ])('refuses %j with 400 naming the parameter', async (params, param) => {
    const error = await failureOf(t.stripe.paymentIntents.list(params as Stripe.PaymentIntentListParams));
    expect(error).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', param });
  });
});
