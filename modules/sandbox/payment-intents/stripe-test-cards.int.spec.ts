/**
 * Only Stripe's documented test cards exist (docs.stripe.com/testing, stripe-test-cards.ts): each is
 * charged as its card, and a misspelt one is an unknown PaymentMethod, as at Stripe — through the
 * official SDK, on every path that takes one.
 */
import Stripe from 'stripe';
import { chargeParams, control, failureOf, startSandbox, SHOPPER, type SandboxUnderTest } from '../sandbox.fixture';

let t: SandboxUnderTest;
beforeEach(async () => {
  t = await startSandbox();
});
afterEach(() => t.sandbox.close());

const UNDOCUMENTED = 'pm_card_visaa';

describe("Stripe's documented test cards", () => {
  it.each(['pm_card_mastercard', 'pm_card_amex', 'pm_card_de', 'pm_card_createDispute', 'pm_card_threeDSecureOptional'])(
    'charges %s as a card that pays',
    async (paymentMethod) => {
      const intent = await t.stripe.paymentIntents.create(chargeParams(paymentMethod, { payment_method: paymentMethod }));

      expect(intent).toMatchObject({ status: 'succeeded', amount_received: 4200, payment_method: paymentMethod });
    },
  );

  it.each([
    ['pm_card_visa_chargeDeclinedVelocityLimitExceeded', 'card_declined', 'card_velocity_exceeded'],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'expired_card'],
    ['pm_card_chargeDeclinedIncorrectCvc', 'incorrect_cvc', 'incorrect_cvc'],
    ['pm_card_chargeDeclinedProcessingError', 'processing_error', 'processing_error'],
    ['pm_card_chargeCustomerFail', 'card_declined', 'generic_decline'],
    ['pm_card_radarBlock', 'card_declined', 'fraudulent'],
  ])('declines %s with code %s and decline code %s', async (paymentMethod, code, declineCode) => {
    const error = await failureOf(t.stripe.paymentIntents.create(chargeParams(paymentMethod, { payment_method: paymentMethod })));

    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ statusCode: 402, code, decline_code: declineCode });
    expect(t.sandbox.charges({ orderId: paymentMethod })).toMatchObject([{ status: 'requires_payment_method', latest_charge: /^ch_/ }]);
  });

  it('charges a card set up for off-session payments off-session, and asks for 3-D Secure on-session', async () => {
    const paymentMethod = 'pm_card_authenticationRequiredSetupForOffSession';
    const offSession = await t.stripe.paymentIntents.create(chargeParams('s1', { payment_method: paymentMethod }));
    const onSession = await t.stripe.paymentIntents.create(
      chargeParams('s2', { payment_method: paymentMethod, off_session: undefined, return_url: 'https://shop.example/return' }),
    );

    expect(offSession.status).toBe('succeeded');
    expect(onSession.status).toBe('requires_action');
  });

  it('attaches a documented card to a customer, and saves one as a test customer’s card', async () => {
    const attached = await t.stripe.paymentMethods.attach('pm_card_mastercard', { customer: SHOPPER });
    const saved = await control(t.sandbox, 'POST', '/_sandbox/customers', { id: 'c-mc', paymentMethod: 'pm_card_jcb' });

    expect(attached).toMatchObject({ object: 'payment_method', customer: SHOPPER, id: expect.stringMatching(/^pm_/) });
    expect(saved.status).toBe(201);
  });
});

describe(`an undocumented test card name (${UNDOCUMENTED})`, () => {
  it("answers Stripe's 400 resource_missing on param payment_method, and creates nothing", async () => {
    const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('u1', { payment_method: UNDOCUMENTED })));

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'payment_method',
      message: "No such PaymentMethod: 'pm_card_visaa'",
    });
    expect(t.sandbox.charges()).toHaveLength(0);
  });

  it('cannot be attached to a customer (404) nor saved as a test customer’s card (400), and makes nothing', async () => {
    const attach = await failureOf(t.stripe.paymentMethods.attach(UNDOCUMENTED, { customer: SHOPPER }));
    const saved = await control(t.sandbox, 'POST', '/_sandbox/customers', { id: 'c-visaa', paymentMethod: UNDOCUMENTED });

    expect(attach).toMatchObject({ statusCode: 404, code: 'resource_missing', message: "No such PaymentMethod: 'pm_card_visaa'" });
    expect(saved.status).toBe(400);
    expect((await t.stripe.paymentMethods.list({ customer: SHOPPER })).data).toEqual([]);
    expect(await failureOf(t.stripe.customers.retrieve('c-visaa'))).toMatchObject({ statusCode: 404 });
  });
});
