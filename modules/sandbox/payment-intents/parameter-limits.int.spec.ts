import Stripe from 'stripe';
import { chargeParams, failureOf, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

describe("POST /v1/payment_intents: the parameters' maxLength in spec3.json", () => {
  let t: SandboxUnderTest;
  beforeEach(async () => {
    t = await startSandbox();
  });
  afterEach(() => t.sandbox.close());

  describe('description (maxLength 1000)', () => {
    it('refuses 1,001 characters with 400 invalid_request_error on description, worded as Stripe words it, and creates nothing', async () => {
      const description = `${'a'.repeat(10)}${'b'.repeat(981)}${'c'.repeat(10)}`;

      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('d1', { description }), { idempotencyKey: 'd-1' }));

      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({
        statusCode: 400,
        param: 'description',
        message: 'Invalid string: aaaaaaaaaa...cccccccccc; must be at most 1000 characters',
      });
      expect(error.raw).toMatchObject({ type: 'invalid_request_error' });
      expect(error.code).toBeUndefined();
      expect(t.sandbox.charges()).toHaveLength(0);
    });

    it('takes exactly 1,000 characters, and does not keep the refusal under the key', async () => {
      await failureOf(t.stripe.paymentIntents.create(chargeParams('d2', { description: 'x'.repeat(1001) }), { idempotencyKey: 'd-2' }));

      const intent = await t.stripe.paymentIntents.create(chargeParams('d2', { description: 'x'.repeat(1000) }), { idempotencyKey: 'd-2' });

      expect(intent).toMatchObject({ status: 'succeeded', description: 'x'.repeat(1000) });
    });

    it('counts characters, not UTF-16 units: 1,000 emoji are 1,000 characters', async () => {
      const description = '💶'.repeat(1000);

      const intent = await t.stripe.paymentIntents.create(chargeParams('d3', { description }));

      expect(intent.description).toBe(description);
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['customer', { customer: `cus_${'x'.repeat(4997)}` }, 'customer'],
    ['payment_method', { payment_method: `pm_${'x'.repeat(4998)}` }, 'payment_method'],
    ['an item of payment_method_types', { payment_method_types: ['card', 'x'.repeat(5001)] }, 'payment_method_types[1]'],
    ['an item of expand', { expand: ['x'.repeat(5001)] }, 'expand[0]'],
  ])('refuses %s over 5,000 characters, naming it', async (_label, params, param) => {
    const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('d4', params as Partial<Stripe.PaymentIntentCreateParams>)));

    expect(error).toMatchObject({ statusCode: 400, param, message: expect.stringMatching(/; must be at most 5000 characters$/) });
    expect(t.sandbox.charges()).toHaveLength(0);
  });

  describe('enums', () => {
    it.each([
      ['capture_method', 'sometimes', 'Invalid capture_method: must be one of automatic, automatic_async, or manual'],
      ['confirmation_method', 'sometimes', 'Invalid confirmation_method: must be one of automatic or manual'],
      ['setup_future_usage', 'always', 'Invalid setup_future_usage: must be one of off_session or on_session'],
    ])('refuses %s=%s with the values Stripe takes', async (param, value, message) => {
      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('e1', { [param]: value })));

      expect(error).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', param, message });
      expect(t.sandbox.charges()).toHaveLength(0);
    });

    it('takes confirmation_method=automatic, a real create parameter, instead of calling it unknown', async () => {
      const intent = await t.stripe.paymentIntents.create(chargeParams('e2', { confirmation_method: 'automatic' }));

      expect(intent).toMatchObject({ status: 'succeeded', confirmation_method: 'automatic' });
    });

    it.each(['one_off', 'recurring'] as const)('takes off_session=%s as an off-session charge (no return_url needed)', async (kind) => {
      const intent = await t.stripe.paymentIntents.create(chargeParams(`e3-${kind}`, { off_session: kind }));

      expect(intent.status).toBe('succeeded');
    });
  });

  describe('statement descriptors (maxLength 22; docs.stripe.com/get-started/account/statement-descriptors)', () => {
    it('refuses a statement_descriptor of 23 characters in the words Stripe answers a PaymentIntent create with', async () => {
      const error = await failureOf(
        t.stripe.paymentIntents.create(chargeParams('s1', { statement_descriptor: 'COCALC LICENSE 1096DAYS' })),
      );

      expect(error).toMatchObject({
        statusCode: 400,
        param: 'statement_descriptor',
        message: 'The statement descriptor must be at most 22 characters. COCALC LICENSE 1096DAYS is 23 characters long.',
      });
      expect(t.sandbox.charges()).toHaveLength(0);
    });

    it.each([
      ['statement_descriptor_suffix', 'x'.repeat(23), /^Invalid string: x{10}\.\.\.x{10}; must be at most 22 characters$/],
      ['statement_descriptor', 'SHOP', /at least 5 characters/],
      ['statement_descriptor', 'SHOP* 481', /cannot contain/],
      ['statement_descriptor_suffix', 'ORDER <481>', /cannot contain/],
      ['statement_descriptor_suffix', '#481', /at least one letter/],
      ['statement_descriptor', '', /You passed an empty string for 'statement_descriptor'/],
    ])('refuses %s=%j', async (param, value, message) => {
      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('s2', { [param]: value })));

      expect(error).toMatchObject({ statusCode: 400, param, message: expect.stringMatching(message) });
      expect(t.sandbox.charges()).toHaveLength(0);
    });

    it('takes a statement_descriptor of 22 characters for a SEPA debit, and a suffix for a card', async () => {
      const sepa = { payment_method: 'pm_successDelayed_de', payment_method_types: ['sepa_debit'] };
      const debit = await t.stripe.paymentIntents.create(
        chargeParams('s3', { ...sepa, statement_descriptor: 'RUNCLUB OCT MARATHON 1' } as Partial<Stripe.PaymentIntentCreateParams>),
      );
      const card = await t.stripe.paymentIntents.create(chargeParams('s4', { statement_descriptor_suffix: 'O 481' }));

      expect([debit.status, card.status]).toEqual(['processing', 'succeeded']);
    });

    it.each([
      ['without payment_method_types (automatic payment methods, cards among them)', {}],
      ['with card among payment_method_types', { payment_method_types: ['card', 'sepa_debit'] }],
    ])('refuses statement_descriptor on an intent a card can pay, %s, as Stripe has since 2024-01-02', async (_label, types) => {
      const params = { ...types, statement_descriptor: 'RUNCLUB' } as Partial<Stripe.PaymentIntentCreateParams>;

      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('s5', params)));

      expect(error).toMatchObject({
        statusCode: 400,
        param: 'statement_descriptor',
        message: expect.stringMatching(/^The statement_descriptor parameter is not supported for the payment_method_type `card`\./),
      });
      expect(t.sandbox.charges()).toHaveLength(0);
    });
  });

  it.each(['receipt_email', 'transfer_group', 'setup_future_usage', 'capture_method'])(
    "refuses %s= (empty: an attempt to unset what create cannot unset) with Stripe's parameter_invalid_empty",
    async (param) => {
      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('u0', { [param]: '' })));

      expect(error).toMatchObject({ statusCode: 400, code: 'parameter_invalid_empty', param });
      expect(error.message).toMatch(new RegExp(`^You passed an empty string for '${param}'`));
      expect(t.sandbox.charges()).toHaveLength(0);
    },
  );

  it('sets no metadata key posted with an empty value (an unset), as Stripe documents', async () => {
    const intent = await t.stripe.paymentIntents.create(chargeParams('m0', { metadata: { order_id: 'm0', note: '' } }));

    expect(intent.metadata).toEqual({ order_id: 'm0' });
  });

  describe('doc_url', () => {
    it.each<[string, Record<string, unknown>, string]>([
      ['an unknown parameter', { colour: 'red' }, 'parameter-unknown'],
      ['a missing amount', { amount: undefined }, 'parameter-missing'],
      ['an amount that is not an integer', { amount: '12.5' }, 'parameter-invalid-integer'],
    ])("links %s to Stripe's entry for its code, as Stripe does", async (_label, params, page) => {
      const error = await failureOf(
        t.stripe.paymentIntents.create(chargeParams('u1', params as Partial<Stripe.PaymentIntentCreateParams>)),
      );

      expect(error.raw).toMatchObject({ code: page.replace(/-/g, '_'), doc_url: `https://stripe.com/docs/error-codes/${page}` });
    });
  });
});
