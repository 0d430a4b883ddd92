/**
 * The gateway's contract against real Stripe, in test mode: the points the sandbox imitates and a
 * machine with access can settle against Stripe itself (README "Payments", how to run it). It runs only
 * when STRIPE_SECRET_KEY is a real `sk_test_` key (not the sandbox's default) and api.stripe.com answers;
 * otherwise every case is skipped with the reason printed. It never runs in CI here (no key, no network).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { loadConfig } from '../../../src/config/config';
import type { ChargeInstruction } from './payment-gateway.port';
import { StripePaymentGateway } from './stripe.payment-gateway';

const SANDBOX_DEFAULT_KEY = 'sk_test_idem_sandbox';
const payments = loadConfig().payments;
const key = payments.stripeSecretKey;
const aimsAtStripe = payments.stripeApiBase === undefined || /^https:\/\/api\.stripe\.com\/?$/.test(payments.stripeApiBase);

/** Decided before the tests are collected, so that a skip is a skip (jest cannot skip asynchronously). */
function whyNotLive(): string | undefined {
  if (!key.startsWith('sk_test_') || key === SANDBOX_DEFAULT_KEY) return 'STRIPE_SECRET_KEY is not a real sk_test_ key';
  if (!aimsAtStripe) return `STRIPE_API_BASE points at ${payments.stripeApiBase}, not api.stripe.com`;
  const probe = spawnSync(
    process.execPath,
    ['-e', "fetch('https://api.stripe.com/healthcheck').then(r => process.exit(r.status < 500 ? 0 : 1), () => process.exit(1))"],
    { timeout: 10_000 },
  );
  if (probe.status !== 0) return 'api.stripe.com cannot be reached from this machine';
  return undefined;
}

const skipReason = whyNotLive();
if (skipReason)
  console.warn(`Stripe test-mode contract skipped: ${skipReason}. See README "Payments: running the gateway against Stripe test mode".`);
const describeLive = skipReason ? describe.skip : describe;

describeLive('StripePaymentGateway against Stripe test mode', () => {
  jest.setTimeout(180_000);
  const stripe = new Stripe(key);
  let customer: string;

  beforeAll(async () => {
    customer = (await stripe.customers.create({ description: 'Idem gateway contract test' })).id;
  });

  /** A saved card of the customer: Stripe's test method attached to them, as a storefront would save it. */
  const savedCard = async (testMethod: string) => (await stripe.paymentMethods.attach(testMethod, { customer })).id;
  const instruction = (): ChargeInstruction => {
    const orderId = `contract-${randomUUID()}`;
    return { orderId, amount: 4200, currency: 'EUR', customerId: customer, idempotencyKey: `idem-order-${orderId}-r1` };
  };

  it('charges a saved card off-session, and the same create under the same key is replayed, not charged again', async () => {
    const gateway = new StripePaymentGateway({ secretKey: key, paymentMethod: await savedCard('pm_card_visa'), maxNetworkRetries: 0 });
    const charge = instruction();

    const first = await gateway.charge(charge);
    const again = await gateway.charge(charge);

    expect(first).toMatchObject({ kind: 'succeeded', replayed: false });
    expect(again).toMatchObject({ kind: 'succeeded', replayed: true });
    expect(again.kind === 'succeeded' && first.kind === 'succeeded' && again.payment.paymentIntentId).toBe(
      first.kind === 'succeeded' && first.payment.paymentIntentId,
    );
  });

  it('is refused without return_url when the confirm is on-session with automatic payment methods', async () => {
    const paymentMethod = await savedCard('pm_card_visa');

    const refused = await stripe.paymentIntents
      .create({ amount: 4200, currency: 'eur', customer, payment_method: paymentMethod, confirm: true })
      .catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({ statusCode: 400, param: 'return_url' });
  });

  it("leaves a delayed SEPA Direct Debit processing (Stripe's pm_successDelayed_de: at least three minutes)", async () => {
    const gateway = new StripePaymentGateway({ secretKey: key, paymentMethod: 'pm_successDelayed_de', maxNetworkRetries: 0 });

    const outcome = await gateway.charge(instruction());

    expect(outcome).toMatchObject({ kind: 'pending', reason: expect.stringContaining('processing') });
    const intentId = outcome.kind === 'pending' ? outcome.paymentIntentId : '';
    expect(await stripe.paymentIntents.retrieve(intentId)).toMatchObject({ status: 'processing', amount_received: 0 });
  });

  it("refuses a PaymentMethod it does not hold, such as the sandbox's former pm_sandbox_processing (400 resource_missing)", async () => {
    const refused = await stripe.paymentIntents
      .create({ amount: 4200, currency: 'eur', customer, payment_method: 'pm_sandbox_processing', confirm: true, off_session: true })
      .catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'payment_method' });
  });

  it('creates without confirm in requires_confirmation, and refuses off_session without confirm (400, param off_session)', async () => {
    const created = await stripe.paymentIntents.create({ amount: 4200, currency: 'eur', customer, payment_method: 'pm_card_visa' });
    const refused = await stripe.paymentIntents
      .create({ amount: 4200, currency: 'eur', customer, payment_method: 'pm_card_visa', off_session: true })
      .catch((error: unknown) => error);

    expect(created).toMatchObject({ status: 'requires_confirmation', amount_received: 0, latest_charge: null });
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({ statusCode: 400, param: 'off_session' });
  });

  it('answers a card that needs 3-D Secure off-session as action required (402 authentication_required)', async () => {
    const gateway = new StripePaymentGateway({
      secretKey: key,
      paymentMethod: await savedCard('pm_card_authenticationRequired'),
      maxNetworkRetries: 0,
    });

    expect(await gateway.charge(instruction())).toMatchObject({
      kind: 'action_required',
      reason: expect.stringContaining('authentication_required'),
    });
  });

  it("looks up the customer's default card, refuses another customer's card, and answers an unknown customer as rejected", async () => {
    const gateway = new StripePaymentGateway({ secretKey: key, paymentMethod: null, maxNetworkRetries: 0 });
    const card = await savedCard('pm_card_visa');
    await stripe.customers.update(customer, { invoice_settings: { default_payment_method: card } });
    const stranger = (await stripe.customers.create({ description: 'Idem gateway contract test: another customer' })).id;

    expect(await gateway.savedPaymentMethod(customer)).toEqual({ kind: 'found', paymentMethodId: card });
    expect(await gateway.charge({ ...instruction(), customerId: stranger, paymentMethodId: card })).toMatchObject({
      kind: 'rejected',
      reason: expect.stringContaining(`does not belong to the Customer you supplied ${stranger}`),
    });
    expect(await gateway.savedPaymentMethod('cus_idem_does_not_exist')).toMatchObject({
      kind: 'rejected',
      reason: "resource_missing: No such customer: 'cus_idem_does_not_exist'",
    });
    // What the sandbox imitates: a charge for an unknown customer is refused (400 resource_missing, param customer).
    expect(await gateway.charge({ ...instruction(), customerId: 'cus_idem_does_not_exist', paymentMethodId: 'pm_card_visa' })).toEqual({
      kind: 'rejected',
      reason: "resource_missing: No such customer: 'cus_idem_does_not_exist'",
    });
  });

  it('finds a charge by metadata.order_id through search only after a lag, and by id at once', async () => {
    const gateway = new StripePaymentGateway({ secretKey: key, paymentMethod: await savedCard('pm_card_visa'), maxNetworkRetries: 0 });
    const charge = instruction();
    const outcome = await gateway.charge(charge);
    if (outcome.kind !== 'succeeded') throw new Error(`expected a charge, got ${JSON.stringify(outcome)}`);
    const createdAt = Date.now();

    expect(await gateway.retrievePayment(outcome.payment.paymentIntentId)).toMatchObject({ status: 'succeeded', orderId: charge.orderId });
    let found = await gateway.findPayments(charge.orderId);
    while (found.length === 0 && Date.now() - createdAt < 150_000) {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      found = await gateway.findPayments(charge.orderId);
    }
    console.info(`Stripe search showed the new intent after ${Date.now() - createdAt} ms`);
    expect(found.map((payment) => payment.paymentIntentId)).toEqual([outcome.payment.paymentIntentId]);
  });
});
