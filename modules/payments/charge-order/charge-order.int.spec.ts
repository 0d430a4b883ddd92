import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { checkStreamLinks } from '../../../src/command-handling/hash-link';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { createSandbox, isSucceededCharge, type Sandbox } from '../../sandbox';
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
let deps: ChargeOrderDeps;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('charge_order'), max: 10 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  sandbox = await createSandbox();
  // Stripe refuses a charge for a customer it does not hold: the customer this spec charges exists first.
  sandbox.createCustomer({ id: 'cus_1' });
  deps = {
    store,
    workerId: 'w1',
    outsidePayments: noOutsidePayments,
    gateway: new StripePaymentGateway({ secretKey: 'sk_test_idem', baseUrl: sandbox.url, maxNetworkRetries: 0, timeoutMs: 2000 }),
  };
});
afterAll(async () => {
  await sandbox.close();
  await pool.end();
});

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'storefront', tokenId: 'test' } };
async function requestCharge(amount = 4200, customerId = 'cus_1'): Promise<string> {
  const orderId = `o-${randomUUID()}`;
  const command = { orderId, amount, currency: 'EUR', customerId, requestId: orderId };
  await orderCommands.handle(store, orderId, (order) => decideRequestCharge(command, order), { metadata });
  return orderId;
}
/** The worker's dependencies with a gateway that sends this payment method for every customer. */
const depsSending = (paymentMethod: string): ChargeOrderDeps => ({
  ...deps,
  gateway: new StripePaymentGateway({ secretKey: 'sk_test_idem', baseUrl: sandbox.url, maxNetworkRetries: 0, paymentMethod }),
});
const fault = (body: object) =>
  fetch(`${sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const chargeAttemptsAtProvider = (orderId: string) => sandbox.charges({ orderId }).filter(isSucceededCharge);
const types = async (orderId: string) => (await store.readStream(orderStream(orderId))).map((e) => e.type);
/** A day later the key may be gone, so verification searches (long since consistent). */
async function chargeADayLater(orderId: string) {
  sandbox.setSearchLag(0);
  try {
    await chargeOrder({ ...deps, now: () => new Date(Date.now() + 24 * 3600_000) }, orderId);
  } finally {
    sandbox.setSearchLag(60_000);
  }
}

describe('chargeOrder', () => {
  it('charges once with the persisted key and records the success', async () => {
    const orderId = await requestCharge();
    expect(await chargeOrder(deps, orderId)).toBe('settled');
    expect(await types(orderId)).toEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeSucceeded']);
    const [intent] = chargeAttemptsAtProvider(orderId);
    expect(intent).toMatchObject({ amount: 4200, currency: 'eur', metadata: { order_id: orderId } });
    expect(sandbox.requests({ orderId })[0].idempotencyKey).toBe(`idem-order-${orderId}-r1`);
    const { state } = await loadOrder(store, orderId);
    expect(state).toMatchObject({ status: 'paid', paymentIntentId: intent.id, recovered: false, attempts: 1 });
    // The outcome links to the attempt as appended (freshIds), which is what the store holds.
    expect(checkStreamLinks(orderStream(orderId), await store.readStream(orderStream(orderId)))).toEqual({ checked: 3, unlinked: 0 });
  });

  it("carries the request's correlation id (its X-Request-Id) on the job's events, caused by the job", async () => {
    const orderId = `o-${randomUUID()}`;
    const command = { orderId, amount: 4200, currency: 'EUR', customerId: 'cus_1', requestId: 'req-481' };
    const requestMetadata = { correlationId: 'req-481', causationId: 'req-481', actor: { role: 'storefront', tokenId: 't' } };
    await orderCommands.handle(store, orderId, (order) => decideRequestCharge(command, order), { metadata: requestMetadata });
    await chargeOrder(deps, orderId, 'job-7');
    const events = await store.readStream(orderStream(orderId));
    expect(events.map((e) => [e.type, e.metadata.correlationId, e.metadata.causationId])).toEqual([
      ['ChargeRequested', 'req-481', 'req-481'],
      ['ChargeAttemptStarted', 'req-481', 'job-7'],
      ['ChargeSucceeded', 'req-481', 'job-7'],
    ]);
  });

  it('records a decline as ChargeFailed (money did not move)', async () => {
    const orderId = await requestCharge();
    // Stripe declines its declining test card; no amount declines at Stripe.
    await chargeOrder(depsSending('pm_card_chargeDeclined'), orderId);
    expect((await loadOrder(store, orderId)).state).toMatchObject({
      status: 'failed',
      lastError: expect.stringContaining('generic_decline'),
    });
    expect(chargeAttemptsAtProvider(orderId)).toHaveLength(0);
  });

  it('does nothing when the job is delivered again after the outcome', async () => {
    const orderId = await requestCharge();
    await chargeOrder(deps, orderId);
    expect(await chargeOrder(deps, orderId)).toBe('nothing_to_do');
    expect(await types(orderId)).toHaveLength(3);
    expect(sandbox.requests({ orderId })).toHaveLength(1);
  });

  describe('when the answer is lost after the provider committed', () => {
    it.each(['drop_after_commit', 'reset_after_commit'])(
      '%s: records unknown, then verifies and records the charge as recovered',
      async (kind) => {
        const orderId = await requestCharge();
        await fault({ kind, orderId, times: 2 });
        await expect(chargeOrder(deps, orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
        expect((await loadOrder(store, orderId)).state.status).toBe('unknown');
        expect(await chargeOrder(deps, orderId)).toBe('settled');
        expect((await loadOrder(store, orderId)).state).toMatchObject({ status: 'paid', recovered: true });
        expect(chargeAttemptsAtProvider(orderId)).toHaveLength(1);
      },
    );
  });

  it('treats a 500 as unknown and, after five in a row, stops and asks for review', async () => {
    const orderId = await requestCharge();
    await fault({ kind: 'error_500', orderId, times: 1 });
    for (let run = 1; run < 5; run++) await expect(chargeOrder(deps, orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
    // The provider stored the 500 under our key and replays it, so the verified retries stay unknown.
    expect(await chargeOrder(deps, orderId)).toBe('settled');
    const { state } = await loadOrder(store, orderId);
    expect(state).toMatchObject({ status: 'needs_review', lastError: expect.stringContaining('5 consecutive unknown') });
    expect((await types(orderId)).filter((t) => t === 'ChargeOutcomeUnknown')).toHaveLength(5);
    expect(chargeAttemptsAtProvider(orderId)).toHaveLength(0);
  });

  it('lets only one of two workers that race on one order call the provider', async () => {
    const orderId = await requestCharge();
    await fault({ kind: 'latency', orderId, ms: 200, times: 1 });
    const results = await Promise.all([chargeOrder({ ...deps, workerId: 'a' }, orderId), chargeOrder({ ...deps, workerId: 'b' }, orderId)]);
    // The loser either sees the winner's attempt in flight or, if it looked later, the outcome.
    expect(results.filter((r) => r === 'settled')).toHaveLength(1);
    expect(results.filter((r) => r !== 'settled')).toEqual([expect.stringMatching(/^(left_to_other_worker|nothing_to_do)$/)]);
    expect((await types(orderId)).filter((t) => t === 'ChargeAttemptStarted')).toHaveLength(1);
    expect(chargeAttemptsAtProvider(orderId)).toHaveLength(1);
  });

  it('asks for review when, once the key may have expired, search shows a charge with another amount', async () => {
    const orderId = await requestCharge();
    await fault({ kind: 'drop_after_commit', orderId, times: 2 });
    await expect(chargeOrder(deps, orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
    // Someone charged this order elsewhere with another amount: the provider's data contradicts ours.
    sandbox.recordOutsideCharge({ orderId, amount: 999, currency: 'EUR', customer: 'x' });
    await chargeADayLater(orderId);
    expect((await loadOrder(store, orderId)).state).toMatchObject({
      status: 'needs_review',
      lastError: expect.stringContaining('2 succeeded payments'),
    });
  });

  it("asks for review when, once the key may have expired, search shows only another customer's charge of the order", async () => {
    const orderId = await requestCharge();
    // The attempt's create fails before the provider does anything: the outcome is unknown, no money moved.
    await fault({ kind: 'error_500', orderId, times: 1, stored: false });
    await expect(chargeOrder(deps, orderId)).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
    // Same order id, amount and currency, but another customer's money.
    sandbox.recordOutsideCharge({ orderId, amount: 4200, currency: 'EUR', customer: 'cus_other' });
    await chargeADayLater(orderId);
    expect((await loadOrder(store, orderId)).state).toMatchObject({
      status: 'needs_review',
      lastError: expect.stringContaining("customer cus_other's, the order is customer cus_1's"),
    });
    expect(await types(orderId)).not.toContain('ChargeSucceeded');
  });

  it('asks for review when the provider rejects the request itself (a missing customer or payment method record)', async () => {
    const orderId = await requestCharge();
    expect(await chargeOrder(depsSending('card_that_does_not_exist'), orderId)).toBe('settled');
    expect((await loadOrder(store, orderId)).state).toMatchObject({
      status: 'needs_review',
      lastError: expect.stringContaining('provider rejected the request'),
    });
    expect(chargeAttemptsAtProvider(orderId)).toHaveLength(0);
  });

  it('asks for review, with the reason, when the provider holds no such customer (never paid)', async () => {
    const orderId = await requestCharge(4200, 'cus_never_created');
    expect(await chargeOrder(deps, orderId)).toBe('settled');
    expect((await loadOrder(store, orderId)).state).toMatchObject({
      status: 'needs_review',
      lastError: expect.stringContaining("resource_missing: No such customer: 'cus_never_created'"),
    });
    expect(sandbox.charges({ orderId })).toEqual([]);
  });
});
