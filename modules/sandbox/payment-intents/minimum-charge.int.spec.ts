import Stripe from 'stripe';
import { chargeParams, failureOf, SHOPPER, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

describe('POST /v1/payment_intents below the currency minimum (docs.stripe.com/currencies#minimum-and-maximum-charge-amounts)', () => {
  let t: SandboxUnderTest;
  beforeEach(async () => {
    t = await startSandbox();
  });
  afterEach(() => t.sandbox.close());

  const createdIntents = async () => (await t.stripe.paymentIntents.list({ customer: SHOPPER })).data;

  it.each([
    ['1 euro cent', { amount: 1, currency: 'eur' }, 'Amount must be at least €0.50 eur'],
    ['49 euro cents', { amount: 49, currency: 'eur' }, 'Amount must be at least €0.50 eur'],
    ['29 pence', { amount: 29, currency: 'gbp' }, 'Amount must be at least £0.30 gbp'],
    ['¥49 (zero-decimal: amount is in yen)', { amount: 49, currency: 'jpy' }, 'Amount must be at least ¥50 jpy'],
  ])('refuses %s with 400 amount_too_small on amount, and creates nothing', async (_label, params, message) => {
    const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('m1', params), { idempotencyKey: 'min-1' }));

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', code: 'amount_too_small', param: 'amount', message });
    expect(error.raw).toMatchObject({ type: 'invalid_request_error', doc_url: 'https://stripe.com/docs/error-codes/amount-too-small' });
    expect(await createdIntents()).toEqual([]);
    expect(t.sandbox.charges()).toHaveLength(0);
  });

  it('charges exactly the minimum (€0.50, ¥50), and a currency outside the table from 1 minor unit (COP)', async () => {
    for (const params of [
      { amount: 50, currency: 'eur' },
      { amount: 50, currency: 'jpy' },
      { amount: 1, currency: 'cop' },
    ]) {
      expect(await t.stripe.paymentIntents.create(chargeParams(`m-${params.currency}`, params))).toMatchObject({ status: 'succeeded' });
    }
  });

  it('does not keep the refusal under the idempotency key: the same key with an amount above the minimum charges', async () => {
    await failureOf(t.stripe.paymentIntents.create(chargeParams('m2', { amount: 1 }), { idempotencyKey: 'min-2' }));

    const intent = await t.stripe.paymentIntents.create(chargeParams('m2', { amount: 50 }), { idempotencyKey: 'min-2' });

    expect(intent).toMatchObject({ status: 'succeeded', amount: 50 });
  });
});
