import Stripe from 'stripe';
import type { PaymentIntent } from '../index';
import { chargeParams, control, failureOf, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

let t: SandboxUnderTest;
beforeEach(async () => {
  t = await startSandbox();
});
afterEach(() => t.sandbox.close());

const charges = async () => (await control<{ data: PaymentIntent[]; charge_attempts: number }>(t.sandbox, 'GET', '/_sandbox/charges')).body;

describe('POST /v1/payment_intents for a customer the sandbox does not hold', () => {
  it("answers Stripe's 400 resource_missing on param customer, and creates nothing", async () => {
    await t.stripe.paymentIntents.create(chargeParams('u0'));
    const before = await charges();

    const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('u1', { customer: 'cus_never_created' })));

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' });
    expect(error.raw).toEqual({
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'customer',
      message: "No such customer: 'cus_never_created'",
      doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
      headers: expect.any(Object),
      statusCode: 400,
      requestId: expect.stringMatching(/^req_/),
    });
    expect(await charges()).toEqual(before);
  });

  it('does not store the refusal under the key: the same key charges once the customer exists', async () => {
    const params = chargeParams('u2', { customer: 'cus_late' });

    const refused = await failureOf(t.stripe.paymentIntents.create(params, { idempotencyKey: 'order-u2' }));
    t.sandbox.createCustomer({ id: 'cus_late' });
    const paid = await t.stripe.paymentIntents.create(params, { idempotencyKey: 'order-u2' });

    expect(refused).toMatchObject({ statusCode: 400, code: 'resource_missing' });
    expect(paid.status).toBe('succeeded');
    expect(paid.lastResponse.headers['idempotent-replayed']).toBeUndefined();
  });

  it('checks the customer before its payment method, so a stranger with a saved card is still unknown', async () => {
    const owner = t.sandbox.createCustomer({ id: 'cus_owner', paymentMethod: 'pm_card_visa' });
    const card = owner.invoice_settings.default_payment_method as string;

    const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('u3', { customer: 'cus_ghost', payment_method: card })));

    expect(error).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' });
  });
});

describe('POST /_sandbox/customers (control API)', () => {
  it('makes a customer with the exact id asked for, 201, which can then be charged', async () => {
    const { status, body } = await control(t.sandbox, 'POST', '/_sandbox/customers', { id: 'c1' });
    const paid = await t.stripe.paymentIntents.create(chargeParams('k1', { customer: 'c1' }));

    expect(status).toBe(201);
    expect(body).toMatchObject({ id: 'c1', object: 'customer', invoice_settings: { default_payment_method: null } });
    expect(paid).toMatchObject({ status: 'succeeded', customer: 'c1' });
  });

  it("saves paymentMethod as the customer's default card, charged as that test card", async () => {
    const { body } = await control<Stripe.Customer>(t.sandbox, 'POST', '/_sandbox/customers', {
      id: 'c-declining',
      paymentMethod: 'pm_card_chargeDeclined',
    });
    const card = body.invoice_settings.default_payment_method as string;

    const declined = await failureOf(t.stripe.paymentIntents.create(chargeParams('k2', { customer: 'c-declining', payment_method: card })));

    expect(card).toMatch(/^pm_[0-9A-Za-z]{24}$/);
    expect((await t.stripe.paymentMethods.list({ customer: 'c-declining', type: 'card' })).data.map((m) => m.id)).toEqual([card]);
    expect(declined).toMatchObject({ statusCode: 402, decline_code: 'generic_decline' });
  });

  it('is idempotent for one id: the same request again answers the same customer and attaches nothing new', async () => {
    const request = { id: 'c2', paymentMethod: 'pm_card_visa' };
    const first = await control<Stripe.Customer>(t.sandbox, 'POST', '/_sandbox/customers', request);
    const again = await control<Stripe.Customer>(t.sandbox, 'POST', '/_sandbox/customers', request);

    expect(again).toEqual(first);
    expect((await t.stripe.paymentMethods.list({ customer: 'c2', type: 'card' })).data).toHaveLength(1);
  });

  it('switches the default card when another test method is asked for', async () => {
    const visa = t.sandbox.createCustomer({ id: 'c3', paymentMethod: 'pm_card_visa' });
    const declining = t.sandbox.createCustomer({ id: 'c3', paymentMethod: 'pm_card_chargeDeclined' });

    expect(declining.id).toBe('c3');
    expect(declining.invoice_settings.default_payment_method).not.toBe(visa.invoice_settings.default_payment_method);
    expect((await t.stripe.paymentMethods.list({ customer: 'c3', type: 'card' })).data).toHaveLength(2);
  });

  it.each([[{}], [{ id: '' }], [{ id: 7 }], [{ id: 'c4', paymentMethod: 'card_123' }]])('refuses %j with 400', async (request) => {
    const { status } = await control(t.sandbox, 'POST', '/_sandbox/customers', request);

    expect(status).toBe(400);
  });

  it('is forgotten by POST /_sandbox/reset', async () => {
    t.sandbox.createCustomer({ id: 'c5' });

    await control(t.sandbox, 'POST', '/_sandbox/reset');
    const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('k5', { customer: 'c5' })));

    expect(error).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' });
  });
});
