import Stripe from 'stripe';
import { chargeParams, control, failureOf, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';
import type { PaymentIntent } from '../index';

describe('confirming a PaymentIntent as Stripe does', () => {
  let t: SandboxUnderTest;
  beforeEach(async () => {
    t = await startSandbox({ searchLagMs: 0 });
  });
  afterEach(() => t.sandbox.close());

  describe('when the confirm has no return_url and none of the exemptions', () => {
    it('answers 400 on return_url and creates nothing', async () => {
      const { off_session: _offSession, ...onSession } = chargeParams('r1');

      const error = await failureOf(t.stripe.paymentIntents.create(onSession));

      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 400, param: 'return_url' });
      expect(t.sandbox.charges({ orderId: 'r1' })).toEqual([]);
    });

    it.each([
      ['off_session=true', { off_session: true }],
      ['a return_url', { return_url: 'https://shop.example/return' }],
      ['payment_method_types', { payment_method_types: ['card'] }],
      [
        'automatic_payment_methods[allow_redirects]=never',
        { automatic_payment_methods: { enabled: true, allow_redirects: 'never' as const } },
      ],
    ])('accepts it with %s', async (_label, exemption) => {
      const { off_session: _offSession, ...onSession } = chargeParams('r2');

      const intent = await t.stripe.paymentIntents.create({ ...onSession, ...exemption });

      expect(intent.status).toBe('succeeded');
    });
  });

  it('accepts real create parameters such as setup_future_usage and payment_method_options', async () => {
    const intent = await t.stripe.paymentIntents.create(
      chargeParams('r3', { setup_future_usage: 'off_session', payment_method_options: { card: { request_three_d_secure: 'automatic' } } }),
    );

    expect(intent.status).toBe('succeeded');
  });

  describe('when the card needs 3-D Secure', () => {
    it.each(['pm_card_authenticationRequired', 'pm_card_threeDSecure2Required'])(
      'off-session (%s): declines with 402 authentication_required, the intent back to requires_payment_method',
      async (paymentMethod) => {
        const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('a1', { payment_method: paymentMethod })));

        expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
        expect(error).toMatchObject({ statusCode: 402, code: 'authentication_required', decline_code: 'authentication_required' });
        expect(error.payment_intent).toMatchObject({
          status: 'requires_payment_method',
          last_payment_error: { code: 'authentication_required' },
        });
      },
    );

    it('on-session with a return_url: answers 200 requires_action with a redirect for the customer', async () => {
      const { off_session: _offSession, ...onSession } = chargeParams('a2', { payment_method: 'pm_card_authenticationRequired' });

      const intent = await t.stripe.paymentIntents.create({ ...onSession, return_url: 'https://shop.example/return' });

      expect(intent).toMatchObject({
        status: 'requires_action',
        amount_received: 0,
        next_action: { type: 'redirect_to_url', redirect_to_url: { return_url: 'https://shop.example/return' } },
      });
    });
  });

  describe('when the payment method takes time (processing)', () => {
    it('answers processing, then shows the final status on retrieve once the provider settles it', async () => {
      const intent = await t.stripe.paymentIntents.create(chargeParams('p1', { payment_method: 'pm_successDelayed_de' }));
      expect(intent.status).toBe('processing');

      const settled = await control<PaymentIntent>(t.sandbox, 'POST', `/_sandbox/payment_intents/${intent.id}/settle`, {
        status: 'succeeded',
      });
      const again = await control<{ error: string }>(t.sandbox, 'POST', `/_sandbox/payment_intents/${intent.id}/settle`, {
        status: 'failed',
      });

      expect(settled).toMatchObject({ status: 200, body: { status: 'succeeded', amount_received: 4200 } });
      expect(again.status).toBe(409);
      expect((await t.stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded');
    });
  });

  it('puts the whole payment_method object in a decline', async () => {
    const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('d1', { payment_method: 'pm_card_chargeDeclined' })));

    expect(error.payment_method).toMatchObject({
      id: 'pm_card_chargeDeclined',
      object: 'payment_method',
      type: 'card',
      livemode: false,
      created: expect.any(Number),
      billing_details: expect.objectContaining({ address: expect.any(Object) }),
      card: expect.objectContaining({ brand: 'visa', last4: '4242' }),
    });
  });
});
