import Stripe from 'stripe';
import { chargeParams, control, failureOf, startSandbox, SHOPPER, type SandboxUnderTest } from '../sandbox.fixture';

let t: SandboxUnderTest;
beforeEach(async () => {
  t = await startSandbox();
});
afterEach(() => t.sandbox.close());

/** The sandbox's own made-up method of earlier versions: Stripe holds no PaymentMethod of that name. */
const MADE_UP = 'pm_sandbox_processing';

describe('a payment_method that is neither held nor one of Stripe test methods', () => {
  it("answers Stripe's 400 resource_missing on param payment_method, and creates nothing", async () => {
    const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('m1', { payment_method: MADE_UP })));

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error.raw).toEqual({
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'payment_method',
      message: "No such PaymentMethod: 'pm_sandbox_processing'",
      doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
      headers: expect.any(Object),
      statusCode: 400,
      requestId: expect.stringMatching(/^req_/),
    });
    expect(t.sandbox.charges()).toHaveLength(0);
  });

  it('does not store the refusal under the key: the same key may then be used with a real method', async () => {
    await failureOf(t.stripe.paymentIntents.create(chargeParams('m2', { payment_method: MADE_UP }), { idempotencyKey: 'order-m2' }));

    const paid = await t.stripe.paymentIntents.create(chargeParams('m2'), { idempotencyKey: 'order-m2' });

    expect(paid.status).toBe('succeeded');
  });

  it('is 404 resource_missing when the URL names it (attach), and the control API refuses to save it', async () => {
    const attach = await failureOf(t.stripe.paymentMethods.attach(MADE_UP, { customer: SHOPPER }));
    const saved = await control(t.sandbox, 'POST', '/_sandbox/customers', { id: 'c9', paymentMethod: MADE_UP });

    expect(attach).toMatchObject({ statusCode: 404, code: 'resource_missing', message: "No such PaymentMethod: 'pm_sandbox_processing'" });
    expect(saved.status).toBe(400);
  });
});
