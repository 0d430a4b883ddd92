import Stripe from 'stripe';
import { chargeParams, failureOf, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

describe('GET /v1/payment_intents/search', () => {
  let t: SandboxUnderTest;
  beforeEach(async () => {
    t = await startSandbox();
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
