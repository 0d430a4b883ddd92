import Stripe from 'stripe';
import { chargeParams, failureOf, SHOPPER, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

describe("the read endpoints: spec3.json's maxLength and enums on their query parameters", () => {
  let t: SandboxUnderTest;
  beforeEach(async () => {
    t = await startSandbox();
  });
  afterEach(() => t.sandbox.close());

  const tooLong = (maxLength: number) =>
    expect.stringMatching(new RegExp(`^Invalid string: .{10}\\.\\.\\..{10}; must be at most ${maxLength} characters$`));

  it.each<[string, Stripe.PaymentIntentListParams, string]>([
    ['customer', { customer: `cus_${'x'.repeat(4997)}` }, 'customer'],
    ['starting_after', { starting_after: `pi_${'x'.repeat(4998)}` }, 'starting_after'],
    ['ending_before', { ending_before: `pi_${'x'.repeat(4998)}` }, 'ending_before'],
  ])('GET /v1/payment_intents refuses a %s over 5,000 characters', async (_label, params, param) => {
    const error = await failureOf(t.stripe.paymentIntents.list(params));

    expect(error).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', param, message: tooLong(5000) });
  });

  it('GET /v1/payment_intents refuses starting_after and ending_before together, as Stripe does', async () => {
    const [newer, older] = [
      await t.stripe.paymentIntents.create(chargeParams('b1')),
      await t.stripe.paymentIntents.create(chargeParams('b2')),
    ];

    const error = await failureOf(t.stripe.paymentIntents.list({ starting_after: newer.id, ending_before: older.id }));

    expect(error).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      message: 'Received both starting_after and ending_before parameters. Please pass in only one.',
    });
  });

  it('GET /v1/payment_intents takes expand[], a parameter of the endpoint, instead of calling it unknown', async () => {
    const listed = await t.stripe.paymentIntents.list({ customer: SHOPPER, expand: ['data.customer'] });

    expect(listed.object).toBe('list');
  });

  it('GET /v1/payment_intents/search refuses a parameter it does not take, and takes expand[]', async () => {
    const query = "metadata['order_id']:'s1'";

    const error = await failureOf(t.stripe.paymentIntents.search({ query, customer: SHOPPER } as Stripe.PaymentIntentSearchParams));
    const found = await t.stripe.paymentIntents.search({ query, expand: ['data.customer'] });

    expect(error).toMatchObject({
      statusCode: 400,
      code: 'parameter_unknown',
      param: 'customer',
      message: 'Received unknown parameter: customer',
    });
    expect(found.object).toBe('search_result');
  });

  it('GET /v1/payment_intents/search refuses a query over 5,000 characters', async () => {
    const error = await failureOf(t.stripe.paymentIntents.search({ query: `metadata['order_id']:'${'1'.repeat(4980)}'` }));

    expect(error).toMatchObject({ statusCode: 400, param: 'query', message: tooLong(5000) });
  });

  it('GET /v1/payment_methods refuses a type outside its enum instead of answering an empty list', async () => {
    const error = await failureOf(
      t.stripe.paymentMethods.list({ customer: SHOPPER, type: 'cardd' as Stripe.PaymentMethodListParams.Type }),
    );

    expect(error).toMatchObject({
      statusCode: 400,
      param: 'type',
      message: expect.stringMatching(/^Invalid type: must be one of acss_debit, affirm, .*, card, .*, sepa_debit, .*, or zip$/),
    });
  });

  it('GET /v1/payment_methods still lists with a type of the enum', async () => {
    const listed = await t.stripe.paymentMethods.list({ customer: SHOPPER, type: 'sepa_debit' });

    expect(listed.data).toEqual([]);
  });
});
