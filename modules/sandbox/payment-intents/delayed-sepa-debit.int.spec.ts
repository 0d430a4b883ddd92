import type { PaymentIntent } from '../index';
import { chargeParams, control, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

let t: SandboxUnderTest;
beforeEach(async () => {
  t = await startSandbox({ searchLagMs: 0 });
});
afterEach(() => t.sandbox.close());

const settle = (intentId: string, body: object = {}) =>
  control<PaymentIntent & { error?: string }>(t.sandbox, 'POST', `/_sandbox/payment_intents/${intentId}/settle`, body);

describe("Stripe's delayed SEPA Direct Debit test tokens", () => {
  it('pm_successDelayed_de: processing with a charge, then succeeded once settled, the status its token documents', async () => {
    const intent = await t.stripe.paymentIntents.create(chargeParams('sd1', { payment_method: 'pm_successDelayed_de' }));
    expect(intent).toMatchObject({ status: 'processing', amount_received: 0, latest_charge: expect.stringMatching(/^ch_/) });
    expect(intent.payment_method_types).toContain('sepa_debit');

    const settled = await settle(intent.id);

    expect(settled).toMatchObject({ status: 200, body: { status: 'succeeded', amount_received: 4200 } });
    expect(t.sandbox.charges({ orderId: 'sd1' })).toMatchObject([{ status: 'succeeded' }]);
  });

  it('pm_failedDelayed_de: processing, then back to requires_payment_method with the SEPA account in the error', async () => {
    const intent = await t.stripe.paymentIntents.create(chargeParams('sd2', { payment_method: 'pm_failedDelayed_de' }));
    expect(intent.status).toBe('processing');

    t.sandbox.settle(intent.id);
    const failed = await t.stripe.paymentIntents.retrieve(intent.id);

    expect(failed).toMatchObject({ status: 'requires_payment_method', payment_method: null, amount_received: 0 });
    expect(failed.last_payment_error?.payment_method).toMatchObject({
      id: 'pm_failedDelayed_de',
      type: 'sepa_debit',
      sepa_debit: { country: 'DE', bank_code: '37040044', last4: '3004' },
    });
  });

  it('refuses a settle that contradicts the token (409) and leaves the intent processing', async () => {
    const intent = await t.stripe.paymentIntents.create(chargeParams('sd3', { payment_method: 'pm_successDelayed_de' }));

    const refused = await settle(intent.id, { status: 'failed' });

    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('pm_successDelayed_de');
    expect((await t.stripe.paymentIntents.retrieve(intent.id)).status).toBe('processing');
  });

  it("settles a customer's saved SEPA account as the token it was made from", async () => {
    const customer = t.sandbox.createCustomer({ id: 'cus_sepa', paymentMethod: 'pm_failedDelayed_de' });
    const saved = customer.invoice_settings.default_payment_method as string;
    const intent = await t.stripe.paymentIntents.create(chargeParams('sd4', { customer: 'cus_sepa', payment_method: saved }));

    const settled = await settle(intent.id, { status: 'failed' });
    const listed = await t.stripe.paymentMethods.list({ customer: 'cus_sepa', type: 'sepa_debit' });

    expect(settled).toMatchObject({ status: 200, body: { status: 'requires_payment_method' } });
    expect(listed.data.map((method) => [method.id, method.type])).toEqual([[saved, 'sepa_debit']]);
    expect((await t.stripe.paymentMethods.list({ customer: 'cus_sepa', type: 'card' })).data).toEqual([]);
  });
});
