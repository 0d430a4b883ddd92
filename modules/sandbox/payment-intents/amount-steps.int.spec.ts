import Stripe from 'stripe';
import { chargeParams, failureOf, SHOPPER, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

describe('POST /v1/payment_intents with an amount Stripe refuses for its step or size (docs.stripe.com/currencies)', () => {
  let t: SandboxUnderTest;
  beforeEach(async () => {
    t = await startSandbox();
  });
  afterEach(() => t.sandbox.close());

  const createdIntents = async () => (await t.stripe.paymentIntents.list({ customer: SHOPPER })).data;

  describe('ISK, whole krónur only since 2023-04-14 (support.stripe.com/questions/deprecation-of-fractional-isk-charges-and-refunds)', () => {
    it.each([1, 150, 1_001])('refuses ISK %i with 400 invalid_charge_amount_no_decimal_compatible, and creates nothing', async (amount) => {
      const error = await failureOf(
        t.stripe.paymentIntents.create(chargeParams('isk-1', { amount, currency: 'isk' }), { idempotencyKey: 'isk-1' }),
      );

      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({
        statusCode: 400,
        code: 'invalid_charge_amount_no_decimal_compatible',
        param: 'amount',
        message:
          'Invalid amount. Currency ISK has become effectively zero-decimal and charged amounts must be evenly divisible by 100. ' +
          'See https://stripe.com/docs/currencies#special-cases for more information.',
      });
      expect(await createdIntents()).toEqual([]);
    });

    it('charges whole krónur (100 = 1 króna), and the same key charges once the amount is whole', async () => {
      await failureOf(t.stripe.paymentIntents.create(chargeParams('isk-2', { amount: 150, currency: 'isk' }), { idempotencyKey: 'isk-2' }));

      const intent = await t.stripe.paymentIntents.create(chargeParams('isk-2', { amount: 200, currency: 'isk' }), {
        idempotencyKey: 'isk-2',
      });

      expect(intent).toMatchObject({ status: 'succeeded', amount: 200, currency: 'isk' });
    });
  });

  describe('three-decimal currencies, last digit 0 (docs.stripe.com/currencies#three-decimal)', () => {
    it.each(['bhd', 'jod', 'kwd', 'omr', 'tnd'])('refuses %s 5124 with 400 on amount, and creates nothing', async (currency) => {
      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('d3', { amount: 5_124, currency })));

      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 400, param: 'amount', code: 'invalid_charge_amount' });
      expect(await createdIntents()).toEqual([]);
    });

    it('charges 5.120 KWD (amount 5120)', async () => {
      expect(await t.stripe.paymentIntents.create(chargeParams('d3-ok', { amount: 5_120, currency: 'kwd' }))).toMatchObject({
        status: 'succeeded',
        amount: 5_120,
      });
    });
  });

  describe('the largest amount: eight digits, twelve for IDR (docs.stripe.com/currencies#minimum-and-maximum-charge-amounts)', () => {
    it('refuses EUR 100000000 with 400 amount_too_large', async () => {
      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('max-1', { amount: 100_000_000 })));

      expect(error).toMatchObject({ statusCode: 400, param: 'amount', code: 'amount_too_large' });
    });

    it('charges IDR 999999999999 and refuses one more', async () => {
      const most = await t.stripe.paymentIntents.create(chargeParams('max-2', { amount: 999_999_999_999, currency: 'idr' }));
      const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('max-3', { amount: 1_000_000_000_000, currency: 'idr' })));

      expect(most).toMatchObject({ status: 'succeeded', amount: 999_999_999_999 });
      expect(error).toMatchObject({ statusCode: 400, param: 'amount', code: 'amount_too_large' });
    });
  });
});
