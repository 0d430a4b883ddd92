/**
 * The worker charges each customer's own saved card, looked up at the provider (the only way with a
 * live key, where a PaymentMethod belongs to one customer), and every later call under the order's
 * key sends the card recorded for it: the provider refuses a key reused with other parameters.
 */
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import Stripe from 'stripe';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { createSandbox, type Sandbox } from '../../sandbox';
import { loadOrder } from '../load-order';
import { orderCommands } from '../order.commands';
import { orderStream } from '../order.events';
import { StripePaymentGateway } from '../payment-gateway/stripe.payment-gateway';
import { decideRequestCharge } from '../request-charge/request-charge.decision';
import { ChargeOutcomeStillUnknown, chargeOrder, type ChargeOrderDeps } from './charge-order.job';
import { noOutsidePayments } from '../../../test/harness/outside-payments';

let pool: Pool;
let store: PostgresEventStore;
let sandbox: Sandbox;
let stripe: Stripe;
const gateway = (paymentMethod?: string | null) =>
  new StripePaymentGateway({ secretKey: 'sk_test_idem', baseUrl: sandbox.url, maxNetworkRetries: 0, timeoutMs: 2000, paymentMethod });
const lookingUp = (): ChargeOrderDeps => ({ store, workerId: 'w1', outsidePayments: noOutsidePayments, gateway: gateway(null) });

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('saved_card'), max: 10 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  sandbox = await createSandbox({ searchLagMs: 0 });
  stripe = new Stripe('sk_test_shop', { host: '127.0.0.1', port: sandbox.port, protocol: 'http', maxNetworkRetries: 0 });
});
afterAll(async () => {
  await sandbox.close();
  await pool.end();
});

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'storefront', tokenId: 'test' } };
async function requestCharge(customerId: string): Promise<string> {
  const orderId = `o-${randomUUID()}`;
  const command = { orderId, amount: 4200, currency: 'EUR', customerId, requestId: orderId };
  await orderCommands.handle(store, orderId, (order) => decideRequestCharge(command, order), { metadata });
  return orderId;
}

/** Stripe's test card saved for the customer (a new PaymentMethod of theirs), made their default if asked. */
async function saveCard(customer: string, asDefault: boolean): Promise<string> {
  const card = (await stripe.paymentMethods.attach('pm_card_visa', { customer })).id;
  if (asDefault) await stripe.customers.update(customer, { invoice_settings: { default_payment_method: card } });
  return card;
}
const newCustomer = async () => (await stripe.customers.create({ email: 'shopper@example.test' })).id;
const attemptsOf = async (orderId: string) =>
  (await store.readStream(orderStream(orderId))).filter((e) => e.type === 'ChargeAttemptStarted').map((e) => e.data.paymentMethodId);
const customerCalls = () =>
  sandbox.requests().filter((r) => r.path.startsWith('/v1/customers') || r.path.startsWith('/v1/payment_methods'));

describe("chargeOrder with each customer's saved card", () => {
  it("charges the customer's default card and records it in the attempt", async () => {
    const customer = await newCustomer();
    await saveCard(customer, false);
    const card = await saveCard(customer, true);
    const orderId = await requestCharge(customer);

    expect(await chargeOrder(lookingUp(), orderId)).toBe('settled');

    expect((await loadOrder(store, orderId)).state.status).toBe('paid');
    expect(sandbox.charges({ orderId }).map((i) => [i.customer, i.payment_method, i.status])).toEqual([[customer, card, 'succeeded']]);
    expect(await attemptsOf(orderId)).toEqual([card]);
  });

  it('charges the card attached to a customer who chose no default', async () => {
    const customer = await newCustomer();
    const card = await saveCard(customer, false);
    const orderId = await requestCharge(customer);

    await chargeOrder(lookingUp(), orderId);

    expect(sandbox.charges({ orderId }).map((i) => i.payment_method)).toEqual([card]);
  });

  it.each([
    ['a customer without a saved card', newCustomer, 'no saved card'],
    [
      'a customer the provider does not know',
      async () => 'cus_unknown_to_stripe',
      "resource_missing: No such customer: 'cus_unknown_to_stripe'",
    ],
    // In a URL path `..` is a step up: the look-up must not send it (the provider would see another URL).
    ['a customer id of dots only', async () => '..', 'cannot be a customer id'],
  ])('hands %s to review with the reason, and sends no charge', async (_label, customerFor, reason) => {
    const orderId = await requestCharge(await customerFor());
    const lookupsBefore = customerCalls().filter((r) => r.path.includes('/..')).length;

    expect(await chargeOrder(lookingUp(), orderId)).toBe('settled');

    expect((await loadOrder(store, orderId)).state).toMatchObject({ status: 'needs_review', lastError: expect.stringContaining(reason) });
    expect(sandbox.charges({ orderId })).toEqual([]);
    expect(await attemptsOf(orderId)).toEqual([]);
    expect(customerCalls().filter((r) => r.path.includes('/..'))).toHaveLength(lookupsBefore);
  });

  it('replays the key with the recorded card after the customer changed their default, and charges once', async () => {
    const customer = await newCustomer();
    const first = await saveCard(customer, true);
    const orderId = await requestCharge(customer);
    // Both the answer and the SDK's one hidden retry are lost: the outcome is unknown.
    const fault = { kind: 'drop_after_commit', orderId, times: 2 };
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fault),
    });
    await expect(chargeOrder(lookingUp(), orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
    const second = await saveCard(customer, true);

    expect(await chargeOrder(lookingUp(), orderId)).toBe('settled');

    expect((await loadOrder(store, orderId)).state).toMatchObject({ status: 'paid', recovered: true });
    expect(await attemptsOf(orderId)).toEqual([first, first]);
    expect(sandbox.charges({ orderId }).map((i) => i.payment_method)).toEqual([first]);
    // What the replay would have met with the new default: Stripe's refusal of a key reused with other parameters.
    const instruction = { orderId, amount: 4200, currency: 'EUR', customerId: customer, idempotencyKey: `idem-order-${orderId}-r1` };
    const outcome = await gateway(null).charge({ ...instruction, paymentMethodId: second });
    expect(outcome).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('idempotency_error') });
  });

  it('refuses a test-mode method with a live key, where a PaymentMethod belongs to one customer', () => {
    expect(() => new StripePaymentGateway({ secretKey: 'sk_live_shop', paymentMethod: 'pm_card_visa' })).toThrow(/live key/);
    expect(() => new StripePaymentGateway({ secretKey: 'rk_live_shop' })).not.toThrow();
  });

  it("records a decline when the customer's saved card is Stripe's declining test card", async () => {
    sandbox.createCustomer({ id: 'cus_declining', paymentMethod: 'pm_card_chargeDeclined' });
    const orderId = await requestCharge('cus_declining');

    expect(await chargeOrder(lookingUp(), orderId)).toBe('settled');

    expect((await loadOrder(store, orderId)).state).toMatchObject({
      status: 'failed',
      lastError: expect.stringContaining('generic_decline'),
    });
    expect(sandbox.charges({ orderId }).map((i) => i.status)).toEqual(['requires_payment_method']);
  });

  it('sends the test-mode method without any look-up when one is configured (the sandbox and benches)', async () => {
    sandbox.createCustomer({ id: 'c1' });
    const orderId = await requestCharge('c1');
    const before = customerCalls().length;

    await chargeOrder({ store, workerId: 'w1', outsidePayments: noOutsidePayments, gateway: gateway() }, orderId);

    expect(sandbox.charges({ orderId }).map((i) => i.payment_method)).toEqual(['pm_card_visa']);
    expect(customerCalls()).toHaveLength(before);
    expect(await attemptsOf(orderId)).toEqual(['pm_card_visa']);
  });
});
