import Stripe from 'stripe';
import { chargeParams, control, failureOf, SHOPPER, startSandbox, stripeFor, type SandboxUnderTest } from '../sandbox.fixture';
import type { PaymentIntent } from '../index';

describe('POST /v1/payment_intents (confirm=true)', () => {
  let t: SandboxUnderTest;
  const now = Date.UTC(2026, 0, 15, 12, 0, 0);
  beforeEach(async () => {
    t = await startSandbox({ clock: () => now });
  });
  afterEach(() => t.sandbox.close());

  describe('when the card is good', () => {
    it('answers a succeeded intent with a charge, the order in metadata and a Request-Id', async () => {
      const intent = await t.stripe.paymentIntents.create(chargeParams('481'));

      expect(intent).toMatchObject({
        object: 'payment_intent',
        status: 'succeeded',
        amount: 4200,
        amount_received: 4200,
        currency: 'eur',
        customer: 'cus_shopper_1',
        metadata: { order_id: '481' },
        created: now / 1000,
        last_payment_error: null,
      });
      expect(intent.id).toMatch(/^pi_[0-9A-Za-z]{24}$/);
      expect(intent.latest_charge).toMatch(/^ch_/);
      expect(intent.lastResponse.requestId).toMatch(/^req_/);
      expect(intent.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    });

    it('lower-cases the currency like Stripe and keeps the intent retrievable by id', async () => {
      const created = await t.stripe.paymentIntents.create(chargeParams('482', { currency: 'EUR' }));

      const retrieved = await t.stripe.paymentIntents.retrieve(created.id);

      expect(retrieved.currency).toBe('eur');
      expect({ ...retrieved }).toEqual({ ...created });
    });
  });

  describe('when the card is declined', () => {
    it('answers 402 card_error, which the SDK raises as StripeCardError carrying the declined intent', async () => {
      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('483', { payment_method: 'pm_card_chargeDeclined' })));

      expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
      expect(error).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'generic_decline' });
      expect(error.payment_intent).toMatchObject({
        status: 'requires_payment_method',
        amount_received: 0,
        metadata: { order_id: '483' },
        last_payment_error: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
      });
      expect(error.requestId).toMatch(/^req_/);
    });

    it('declines pm_card_visa_chargeDeclinedInsufficientFunds with decline_code insufficient_funds', async () => {
      const error = await failureOf(
        t.stripe.paymentIntents.create(chargeParams('484', { payment_method: 'pm_card_visa_chargeDeclinedInsufficientFunds' })),
      );

      expect(error).toMatchObject({ type: 'StripeCardError', decline_code: 'insufficient_funds' });
    });

    it('never declines for the amount: an amount ending in 02 is paid like any other, as at Stripe', async () => {
      const paid = await Promise.all(
        [1002, 4502].map((amount) => t.stripe.paymentIntents.create(chargeParams(`485-${amount}`, { amount }))),
      );

      expect(paid.map((intent) => intent.status)).toEqual(['succeeded', 'succeeded']);
    });

    it('keeps the declined intent at the provider, where it is not a successful charge', async () => {
      await failureOf(t.stripe.paymentIntents.create(chargeParams('487', { payment_method: 'pm_card_chargeDeclined' })));

      const { body } = await control<{ data: PaymentIntent[] }>(t.sandbox, 'GET', '/_sandbox/charges?orderId=487');

      expect(body.data.map((intent) => intent.status)).toEqual(['requires_payment_method']);
    });
  });

  describe('when the request is invalid', () => {
    it('answers 400 invalid_request_error naming the parameter and creates nothing', async () => {
      const error = await failureOf(
        t.stripe.paymentIntents.create({
          currency: 'eur',
          payment_method: 'pm_card_visa',
          confirm: true,
          metadata: { order_id: '488' },
        } as never),
      );

      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 400, param: 'amount', code: 'parameter_missing' });
      expect(t.sandbox.charges()).toHaveLength(0);
    });

    it('answers 400 resource_missing for a payment method that does not exist', async () => {
      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('492', { payment_method: 'card_123' })));

      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 400, param: 'payment_method', code: 'resource_missing' });
    });

    // Stripe reads `param=` as "unset it"; none of these can be unset on create (spec3.json PostPaymentIntents:
    // plain strings, not emptyable), so it answers 400 parameter_invalid_empty instead of taking "" as "none".
    it.each(['description', 'customer', 'payment_method', 'return_url'] as const)(
      'refuses an empty %s with parameter_invalid_empty, as Stripe does, and creates nothing',
      async (param) => {
        const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('494', { [param]: '' })));

        expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
        expect(error).toMatchObject({
          statusCode: 400,
          type: 'StripeInvalidRequestError',
          param,
          code: 'parameter_invalid_empty',
          doc_url: 'https://stripe.com/docs/error-codes/parameter-invalid-empty',
          message:
            `You passed an empty string for '${param}'. We assume empty values are an attempt to unset a parameter; ` +
            `however '${param}' cannot be unset. You should remove '${param}' from your request or supply a non-empty value.`,
        });
        expect(t.sandbox.charges()).toHaveLength(0);
        expect((await t.stripe.paymentIntents.list({ customer: SHOPPER })).data).toHaveLength(0);
      },
    );

    it('takes a charge without a description as one with none (description null)', async () => {
      const { description: _left, ...withoutDescription } = chargeParams('495');
      expect((await t.stripe.paymentIntents.create(withoutDescription)).description).toBeNull();
    });

    it('refuses more than 50 metadata keys, as Stripe does, and takes 50', async () => {
      const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v']));
      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('496', { metadata: { order_id: '496', ...keys(50) } })));

      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({
        statusCode: 400,
        param: 'metadata',
        message: expect.stringMatching(/^Metadata can have up to 50 keys, but you've set 51\./),
      });
      expect(t.sandbox.charges()).toHaveLength(0);
      expect((await t.stripe.paymentIntents.create(chargeParams('497', { metadata: { order_id: '497', ...keys(49) } }))).status).toBe(
        'succeeded',
      );
    });

    it('rejects unknown parameters like Stripe does', async () => {
      const error = await failureOf(t.stripe.paymentIntents.create({ ...chargeParams('490'), colour: 'blue' } as never));

      expect(error).toMatchObject({ statusCode: 400, param: 'colour', code: 'parameter_unknown' });
    });
  });

  describe('authentication', () => {
    it.each([['sk_live_123'], ['rk_test_123']])('refuses the key %s with 401 before looking at the request', async (apiKey) => {
      const error = await failureOf(stripeFor(t.sandbox, {}, apiKey).paymentIntents.create(chargeParams('491')));

      expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
      expect(error.statusCode).toBe(401);
      expect(t.sandbox.charges()).toHaveLength(0);
    });

    describe('with the key as the Basic auth username, as Stripe documents it (curl -u sk_test_…:)', () => {
      const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
      const create = (authorization: string, idempotencyKey: string) =>
        fetch(`${t.sandbox.url}/v1/payment_intents`, {
          method: 'POST',
          headers: { authorization, 'idempotency-key': idempotencyKey, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            amount: '4200',
            currency: 'eur',
            payment_method: 'pm_card_visa',
            confirm: 'true',
            off_session: 'true',
            'metadata[order_id]': '492',
          }),
        });

      it('charges, and takes the key for the same account as under Bearer auth (a replay, not a second charge)', async () => {
        const first = await create(basic('sk_test_basic'), 'basic-492');
        const again = await create('Bearer sk_test_basic', 'basic-492');

        expect(first.status).toBe(200);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(((await again.json()) as PaymentIntent).id).toBe(((await first.json()) as PaymentIntent).id);
        expect(t.sandbox.charges()).toHaveLength(1);
      });

      it('refuses a live key sent that way with 401, masked', async () => {
        const response = await create(basic('sk_live_basic'), 'basic-live-492');

        expect(response.status).toBe(401);
        expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Invalid API Key provided: sk_live_***');
        expect(t.sandbox.charges()).toHaveLength(0);
      });
    });

    it('refuses a request without an Authorization header with the message Stripe answers', async () => {
      const response = await fetch(`${t.sandbox.url}/v1/payment_intents/pi_x`);

      expect(response.status).toBe(401);
      expect(response.headers.get('request-id')).toMatch(/^req_/);
      expect(await response.json()).toEqual({
        error: {
          type: 'invalid_request_error',
          message:
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). " +
            'See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.',
        },
      });
    });
  });

  describe('GET /v1/payment_intents/:id', () => {
    it('answers 404 resource_missing for an unknown intent', async () => {
      const error = await failureOf(t.stripe.paymentIntents.retrieve('pi_unknown'));

      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    });
  });
});
