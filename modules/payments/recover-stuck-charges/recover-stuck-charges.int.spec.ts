/**
 * The scheduled sweep end to end below the scheduler: orders made stuck by real faults (a lost
 * answer, a worker dying after the provider call), the real orders read model answering "which
 * orders are stuck", the sandbox provider answering verification. Each order's last change is placed
 * in time through the worker's clock (the read model dates an order by its events' recordedAt).
 */
import { randomUUID } from 'node:crypto';
import { ordersReadModel } from '../../../projections/orders/orders.projector';
import { OrderQueries } from '../../../projections/orders/orders.queries';
import { openReadModels, type ReadModels } from '../../../src/bootstrap/read-models';
import { startProjections, type RunningProjections } from '../../../src/subscriptions/start-projections';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';
import { waitFor } from '../../../test/projections/projection-harness';
import { isSucceededCharge } from '../../sandbox';
import { chargeOrder, ChargeOutcomeStillUnknown } from '../charge-order/charge-order.job';
import { needsReviewCount } from '../needs-review.alert';
import { loadOrder } from '../load-order';
import { orderCommands } from '../order.commands';
import { decideRequestCharge } from '../request-charge/request-charge.decision';
import type { PaymentGateway } from '../payment-gateway/payment-gateway.port';
import { recoverStuckCharges, type FindStuckOrders } from './recover-stuck-charges.job';
import { WebhookDeliveries } from '../receive-webhook/webhook-deliveries';

const deliveries = () => new WebhookDeliveries(harness.runtime.pool);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const THRESHOLD_MS = 15 * MINUTE;
const WINDOW_MS = 24 * HOUR;

let harness: TestApp;
let readModels: ReadModels;
let orders: OrderQueries;
let projections: RunningProjections;

beforeAll(async () => {
  harness = await startTestApp('recovery_sweep');
  harness.sandbox.createCustomer({ id: 'c1' });
  readModels = await openReadModels(harness.runtime, harness.features, 2);
  orders = new OrderQueries(readModels.dataSource);
  projections = await startProjections({
    store: harness.runtime.eventStore,
    pool: harness.runtime.pool,
    readModels: [ordersReadModel],
    reactors: [],
  });
});
afterAll(async () => {
  await projections.stop();
  await readModels.close();
  await harness.close();
});

class WorkerCrashed extends Error {}
const store = () => harness.runtime.eventStore;

/**
 * The provider refuses every question about these orders (say, an order id its API rejects), whether
 * verification replays the create under the order's key or searches by the order id.
 */
function refusingCallsAbout(orderIds: Set<string>): PaymentGateway {
  const refuse = (orderId: string) => {
    if (orderIds.has(orderId)) throw new Error(`provider refused the request about order ${orderId}`);
  };
  return {
    charge: async (instruction) => (refuse(instruction.orderId), harness.gateway.charge(instruction)),
    findPayments: async (orderId) => (refuse(orderId), harness.gateway.findPayments(orderId)),
    retrievePayment: (id) => harness.gateway.retrievePayment(id),
    listPayments: (customerId, since) => harness.gateway.listPayments(customerId, since),
    savedPaymentMethod: (customerId) => harness.gateway.savedPaymentMethod(customerId),
  };
}

async function requested(): Promise<string> {
  const orderId = `o-${randomUUID()}`;
  const response = await harness.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge`,
    headers: auth('storefront'),
    payload: { amount: 4200, currency: 'EUR', customerId: 'c1' },
  });
  expect(response.statusCode).toBe(202);
  return orderId;
}

/**
 * A charge requested at `at` whose job gave up before recording any attempt (the database was down on
 * every try): the order is `pending` since `at`, and no job will look at it again.
 */
async function pendingSince(at: Date): Promise<string> {
  const orderId = `o-${randomUUID()}`;
  const command = { orderId, amount: 4200, currency: 'EUR', customerId: 'c1', requestId: orderId };
  const metadata = { correlationId: orderId, causationId: orderId, actor: { role: 'storefront', tokenId: 'test' } };
  await orderCommands.handle(store(), orderId, (order) => decideRequestCharge(command, order), { metadata, now: () => at });
  return orderId;
}

/** An attempt whose answer was lost after the provider charged: the order is `unknown` since `at`. */
async function unknownSince(at: Date): Promise<string> {
  const orderId = await requested();
  await fetch(`${harness.sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'drop_after_commit', orderId, times: 2 }),
  });
  await expect(
    chargeOrder({ store: store(), gateway: harness.gateway, workerId: 'w', outsidePayments: deliveries(), now: () => at }, orderId),
  ).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
  return orderId;
}

/** A worker that died right after the provider charged: the order is `processing` since `at`. */
async function processingSince(at: Date): Promise<string> {
  const orderId = await requested();
  const crashing: PaymentGateway = {
    charge: async (instruction) => {
      await harness.gateway.charge(instruction);
      throw new WorkerCrashed('worker died after the provider call');
    },
    findPayments: (id) => harness.gateway.findPayments(id),
    retrievePayment: (id) => harness.gateway.retrievePayment(id),
    listPayments: (customerId, since) => harness.gateway.listPayments(customerId, since),
    savedPaymentMethod: (customerId) => harness.gateway.savedPaymentMethod(customerId),
  };
  await expect(
    chargeOrder({ store: store(), gateway: crashing, workerId: 'w', outsidePayments: deliveries(), now: () => at }, orderId),
  ).rejects.toBeInstanceOf(WorkerCrashed);
  return orderId;
}

/** The real read model's answer, narrowed to this test's orders (other tests' orders share the table). */
function finderFor(orderIds: string[]): FindStuckOrders {
  const mine = new Set(orderIds);
  return async (statuses, after, before, limit) =>
    (await orders.findStuckOrders(statuses, after, before, limit)).filter((o) => mine.has(o.orderId));
}

async function readModelShows(orderIds: string[], status: string): Promise<void> {
  await waitFor(`the orders read model to show ${orderIds.length} order(s) ${status}`, async () => {
    const rows = await Promise.all(orderIds.map((id) => orders.findOrder(id)));
    return rows.every((row) => row?.status === status);
  });
}

const sweep = (orderIds: string[], now: Date, gateway: PaymentGateway = harness.gateway) =>
  recoverStuckCharges({ store: store(), gateway, workerId: 'sweeper', pool: harness.runtime.pool, now: () => now }, finderFor(orderIds), {
    thresholdMs: THRESHOLD_MS,
    windowMs: WINDOW_MS,
    trigger: 'schedule',
    now,
  });
const statusOf = async (orderId: string) => (await loadOrder(store(), orderId)).state;

describe('recoverStuckCharges', () => {
  describe('when an order is stuck in unknown', () => {
    it('verifies it with the provider and records the charge as recovered', async () => {
      const now = new Date();
      const orderId = await unknownSince(new Date(now.getTime() - 2 * HOUR));
      await readModelShows([orderId], 'unknown');

      const results = await sweep([orderId], now);

      expect(results).toEqual([expect.objectContaining({ orderId, oldStatus: 'unknown', newStatus: 'paid' })]);
      expect(await statusOf(orderId)).toMatchObject({ status: 'paid', recovered: true });
      expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
    });
  });

  describe('when an order was left pending by a charge job that gave up', () => {
    it('charges it once as a first attempt and records the outcome', async () => {
      const now = new Date();
      const orderId = await pendingSince(new Date(now.getTime() - 2 * HOUR));
      await readModelShows([orderId], 'pending');

      const results = await sweep([orderId], now);

      expect(results).toEqual([expect.objectContaining({ orderId, oldStatus: 'pending', newStatus: 'paid' })]);
      expect(await statusOf(orderId)).toMatchObject({ status: 'paid', attempts: 1, recovered: false });
      expect(harness.sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
    });

    it('records that nothing was sent when the saved card look-up gets no answer, and leaves the order pending', async () => {
      const now = new Date();
      const orderId = await pendingSince(new Date(now.getTime() - 2 * HOUR));
      await readModelShows([orderId], 'pending');
      const lookupDown: PaymentGateway = { ...harness.gateway, savedPaymentMethod: async () => ({ kind: 'unknown', error: 'ETIMEDOUT' }) };
      // The harness gateway is a class instance: its methods keep their own `this`.
      for (const name of ['charge', 'findPayments', 'retrievePayment', 'listPayments'] as const)
        Object.assign(lookupDown, { [name]: harness.gateway[name].bind(harness.gateway) });

      const results = await sweep([orderId], now, lookupDown);

      expect(results).toEqual([
        expect.objectContaining({
          orderId,
          oldStatus: 'pending',
          newStatus: 'pending',
          reason: expect.stringContaining('look-up got no answer'),
        }),
      ]);
      expect(harness.sandbox.charges({ orderId })).toHaveLength(0);
    });

    it('leaves one that is not yet silent for the threshold to its job, and hands one past the window to review', async () => {
      const now = new Date();
      const recent = await pendingSince(new Date(now.getTime() - THRESHOLD_MS + MINUTE));
      const forgotten = await pendingSince(new Date(now.getTime() - THRESHOLD_MS - WINDOW_MS - MINUTE));
      await readModelShows([recent, forgotten], 'pending');

      const results = await sweep([recent, forgotten], now);

      expect(results).toEqual([expect.objectContaining({ orderId: forgotten, oldStatus: 'pending', newStatus: 'needs_review' })]);
      expect(await statusOf(recent)).toMatchObject({ status: 'pending' });
      expect(await statusOf(forgotten)).toMatchObject({ status: 'needs_review', lastError: expect.stringContaining('still pending') });
      expect(harness.sandbox.charges({ orderId: forgotten })).toHaveLength(0);
    });
  });

  describe('when the oldest stuck order fails every time', () => {
    it('counts and reports its failure and still recovers the orders behind it', async () => {
      const now = new Date();
      const poisoned = await unknownSince(new Date(now.getTime() - 20 * HOUR));
      const unknown = await unknownSince(new Date(now.getTime() - 10 * HOUR));
      const processing = await processingSince(new Date(now.getTime() - 5 * HOUR));
      await readModelShows([poisoned, unknown], 'unknown');
      await readModelShows([processing], 'processing');

      const results = await sweep([poisoned, unknown, processing], now, refusingCallsAbout(new Set([poisoned])));

      expect(results.map((r) => r.orderId)).toEqual([poisoned, unknown, processing]);
      expect(results.filter((r) => r.error !== undefined)).toEqual([
        expect.objectContaining({
          orderId: poisoned,
          oldStatus: 'unknown',
          newStatus: 'unknown',
          error: expect.stringContaining('refused the request'),
        }),
      ]);
      // Its verification (the create sent again under its key) was recorded as an attempt before the
      // refused call, so it is still stuck — processing, for the next sweep — and not settled.
      expect(await statusOf(poisoned)).toMatchObject({ status: 'processing' });
      expect(await statusOf(unknown)).toMatchObject({ status: 'paid', recovered: true });
      expect(await statusOf(processing)).toMatchObject({ status: 'paid', recovered: true });
    });
  });

  describe('when a stuck order reaches the far edge of the window', () => {
    it('still tries to recover an order whose last change is exactly at the edge, and hands one a millisecond older to review', async () => {
      const now = new Date();
      const edge = now.getTime() - THRESHOLD_MS - WINDOW_MS;
      const atEdge = await unknownSince(new Date(edge));
      const leftWindow = await unknownSince(new Date(edge - 1));
      await readModelShows([atEdge, leftWindow], 'unknown');
      const alertsBefore = await needsReviewCount();

      // Neither can be verified: the provider refuses both searches, as on every sweep before.
      const results = await sweep([atEdge, leftWindow], now, refusingCallsAbout(new Set([atEdge, leftWindow])));

      expect(await statusOf(atEdge)).toMatchObject({ status: 'unknown' });
      expect(results.find((r) => r.orderId === atEdge)).toMatchObject({ error: expect.stringContaining('refused the request') });
      const escalated = await statusOf(leftWindow);
      expect(escalated).toMatchObject({
        status: 'needs_review',
        lastError: expect.stringContaining('left the 24 h recovery window unresolved'),
      });
      expect(results.find((r) => r.orderId === leftWindow)).toMatchObject({ oldStatus: 'unknown', newStatus: 'needs_review' });
      expect(await needsReviewCount()).toBe(alertsBefore + 1);
      const { rows } = await harness.runtime.pool.query(
        'SELECT old_status, new_status, trigger FROM payment_recovery_log WHERE order_id = $1',
        [leftWindow],
      );
      expect(rows).toEqual([{ old_status: 'unknown', new_status: 'needs_review', trigger: 'schedule' }]);
    });

    it('hands an order long past the window to review without asking the provider again', async () => {
      const now = new Date();
      const forgotten = await processingSince(new Date(now.getTime() - 3 * 24 * HOUR));
      await readModelShows([forgotten], 'processing');
      const asked: string[] = [];
      const watching: PaymentGateway = {
        charge: async (i) => (asked.push(i.orderId), harness.gateway.charge(i)),
        findPayments: async (id) => (asked.push(id), harness.gateway.findPayments(id)),
        retrievePayment: async (id) => (asked.push(id), harness.gateway.retrievePayment(id)),
        listPayments: async (customerId, since) => (asked.push(customerId), harness.gateway.listPayments(customerId, since)),
        savedPaymentMethod: async (customerId) => (asked.push(customerId), harness.gateway.savedPaymentMethod(customerId)),
      };

      await sweep([forgotten], now, watching);

      expect(await statusOf(forgotten)).toMatchObject({ status: 'needs_review', lastError: expect.stringContaining('still processing') });
      expect(asked).toEqual([]);
    });
  });
});
