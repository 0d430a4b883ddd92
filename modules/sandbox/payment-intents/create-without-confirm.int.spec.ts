import Stripe from 'stripe';
import type { PaymentIntent } from '../index';
import { chargeParams, control, failureOf, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

let t: SandboxUnderTest;
beforeEach(async () => {
  t = await startSandbox({ searchLagMs: 0 });
});
afterEach(() => t.sandbox.close());

/** What a storefront sends to create an intent it confirms later: no confirm, so none of the confirm-only parameters. */
function unconfirmed(orderId: string, overrides: Partial<Stripe.PaymentIntentCreateParams> = {}): Stripe.PaymentIntentCreateParams {
  const { confirm: _confirm, off_session: _offSession, ...params } = chargeParams(orderId);
  return { ...params, ...overrides };
}
const charges = async () => (await control<{ data: PaymentIntent[]; charge_attempts: number }>(t.sandbox, 'GET', '/_sandbox/charges')).body;

describe('POST /v1/payment_intents without confirm, as Stripe accepts it', () => {
  it('creates the intent in requires_confirmation when it names a payment method, and charges nothing', async () => {
    const intent = await t.stripe.paymentIntents.create(unconfirmed('nc1'));

    expect(intent).toMatchObject({
      status: 'requires_confirmation',
      payment_method: 'pm_card_visa',
      amount: 4200,
      amount_received: 0,
      latest_charge: null,
      last_payment_error: null,
    });
    expect(await t.stripe.paymentIntents.retrieve(intent.id)).toMatchObject({ id: intent.id, status: 'requires_confirmation' });
    expect(await charges()).toMatchObject({ data: [{ id: intent.id }], charge_attempts: 0 });
  });

  it('creates it in requires_payment_method without one', async () => {
    const intent = await t.stripe.paymentIntents.create(unconfirmed('nc2', { payment_method: undefined }));

    expect(intent).toMatchObject({ status: 'requires_payment_method', payment_method: null, latest_charge: null });
  });

  it('treats confirm=false like no confirm', async () => {
    const intent = await t.stripe.paymentIntents.create(unconfirmed('nc3', { confirm: false }));

    expect(intent.status).toBe('requires_confirmation');
  });

  it('still refuses a payment method Stripe does not hold, and creates nothing', async () => {
    const error = await failureOf(t.stripe.paymentIntents.create(unconfirmed('nc4', { payment_method: 'pm_sandbox_processing' })));

    expect(error).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'payment_method' });
    expect(t.sandbox.charges()).toHaveLength(0);
  });

  it.each([
    ['off_session', { off_session: true }],
    ['return_url', { return_url: 'https://shop.example/return' }],
    ['error_on_requires_action', { error_on_requires_action: true }],
  ])('refuses %s, which only a confirming create may send, and creates nothing', async (param, extra) => {
    const error = await failureOf(t.stripe.paymentIntents.create(unconfirmed('nc5', extra)));

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, param });
    expect(t.sandbox.charges()).toHaveLength(0);
  });

  it('does not confirm it later: the confirm endpoint is not served, answered as Stripe answers a URL it does not know', async () => {
    const intent = await t.stripe.paymentIntents.create(unconfirmed('nc6'));

    const error = await failureOf(t.stripe.paymentIntents.confirm(intent.id, { off_session: true }));

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 404, message: `Unrecognized request URL (POST: /v1/payment_intents/${intent.id}/confirm).` });
    expect((await t.stripe.paymentIntents.retrieve(intent.id)).status).toBe('requires_confirmation');
  });
});
