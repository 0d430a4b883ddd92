/**
 * Property: whatever interleaving of duplicate requests, racing workers, crashes, provider faults and
 * (duplicated) webhooks happens, once faults stop and recovery runs, DESIGN §9 invariants 1–4 hold:
 * at most one charge per order at the provider, every accepted order settles, local state equals
 * provider state, duplicates do no work and mismatches change nothing.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import Stripe from 'stripe';
import { auth, startTestApp, type TestApp } from '../../test/harness/test-app';
import { chargeOrder, loadOrder, reconcileOrder, type ChargeOrderDeps, type PaymentGateway } from './index';
import { orderStream } from './order.events';
import { isSucceededCharge } from '../sandbox';
import { WebhookDeliveries } from './receive-webhook/webhook-deliveries';

const SECRET = 'whsec_property';
let harness: TestApp;
let webhookUrl: string;

beforeAll(async () => {
  harness = await startTestApp('charge_property', { IDEM_WEBHOOK_SECRET: SECRET });
  harness.sandbox.createCustomer({ id: 'cus_p' });
  await harness.app.listen({ port: 0, host: '127.0.0.1' });
  webhookUrl = `${(await harness.app.getUrl()).replace('[::1]', '127.0.0.1')}/v1/webhooks/payments`;
});
afterAll(() => harness.close());

class WorkerCrashed extends Error {}

/** A gateway that dies right after the provider answered: the outcome never reaches the stream. */
function crashingAfterProvider(gateway: PaymentGateway): PaymentGateway {
  return {
    charge: async (instruction) => {
      await gateway.charge(instruction);
      throw new WorkerCrashed('worker died after the provider call');
    },
    findPayments: (orderId) => gateway.findPayments(orderId),
    retrievePayment: (id) => gateway.retrievePayment(id),
    listPayments: (customerId, since) => gateway.listPayments(customerId, since),
    savedPaymentMethod: (customerId) => gateway.savedPaymentMethod(customerId),
  };
}

type Action =
  | { kind: 'request'; order: number; variant: 'same' | 'same_with_key' | 'other_key' | 'mismatch' }
  | { kind: 'work'; order: number; crash: boolean }
  | { kind: 'fault'; order: number; fault: 'drop_after_commit' | 'reset_after_commit' | 'error_500' | 'timeout' | 'latency'; times: number }
  | { kind: 'webhooks'; order: number };

const action = (orders: number): fc.Arbitrary<Action> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('request' as const),
      order: fc.nat(orders - 1),
      variant: fc.constantFrom('same' as const, 'same_with_key' as const, 'other_key' as const, 'mismatch' as const),
    }),
    fc.record({ kind: fc.constant('work' as const), order: fc.nat(orders - 1), crash: fc.boolean() }),
    fc.record({
      kind: fc.constant('fault' as const),
      order: fc.nat(orders - 1),
      fault: fc.constantFrom(
        'drop_after_commit' as const,
        'reset_after_commit' as const,
        'error_500' as const,
        'timeout' as const,
        'latency' as const,
      ),
      times: fc.integer({ min: 1, max: 3 }),
    }),
    fc.record({ kind: fc.constant('webhooks' as const), order: fc.nat(orders - 1) }),
  );

/** Steps of up to three actions that run concurrently. */
const scenario = fc.array(fc.array(action(3), { minLength: 1, maxLength: 3 }), { minLength: 3, maxLength: 10 });

describe('charging under duplicates, races, crashes, faults and webhooks', () => {
  it('keeps DESIGN §9 invariants 1–4', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (steps) => {
        const run = randomUUID().slice(0, 8);
        const orderIds = [0, 1, 2].map((i) => `p${run}-${i}`);
        const accepted = new Set<string>();
        const body = { amount: 4200, currency: 'EUR', customerId: 'cus_p' };
        const deps: ChargeOrderDeps = {
          store: harness.runtime.eventStore,
          gateway: harness.gateway,
          workerId: 'w',
          outsidePayments: new WebhookDeliveries(harness.runtime.pool),
          attemptLeaseMs: 60_000,
        };
        const correlationIdsOf = async (orderId: string) =>
          (await harness.runtime.eventStore.readStream(orderStream(orderId))).map((e) => e.metadata.correlationId);

        const perform = async (a: Action): Promise<void> => {
          const orderId = orderIds[a.order];
          if (a.kind === 'request') {
            const payload = a.variant === 'mismatch' ? { ...body, amount: 999 } : body;
            const requestId = `req-${randomUUID()}`;
            const headers = {
              ...auth('storefront'),
              'x-request-id': requestId,
              ...(a.variant === 'same_with_key'
                ? { 'idempotency-key': `k-${orderId}` }
                : a.variant === 'other_key'
                  ? { 'idempotency-key': randomUUID() }
                  : {}),
            };
            const response = await harness.app.inject({ method: 'POST', url: `/v1/orders/${orderId}/charge`, headers, payload });
            if (response.statusCode < 300) accepted.add(orderId);
            // 4. A mismatch changes nothing: no event of the stream was caused by the refused request
            // (other actions of the step append to it meanwhile, so its length would prove nothing).
            if (response.statusCode === 422) expect(await correlationIdsOf(orderId)).not.toContain(requestId);
            expect([200, 202, 422]).toContain(response.statusCode);
          } else if (a.kind === 'work') {
            const gateway = a.crash ? crashingAfterProvider(harness.gateway) : harness.gateway;
            await chargeOrder({ ...deps, gateway, workerId: `w${Math.random()}` }, orderId).catch((error) => {
              if (!(error instanceof WorkerCrashed) && error?.constructor?.name !== 'ChargeOutcomeStillUnknown') throw error;
            });
          } else if (a.kind === 'fault') {
            await fetch(`${harness.sandbox.url}/_sandbox/faults`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ kind: a.fault, orderId, times: a.times, ms: 150 }),
            });
          } else {
            // Deliver every provider event for the order, twice, newest first (duplicated and reordered).
            const events = (await (await fetch(`${harness.sandbox.url}/_sandbox/webhooks/events`)).json()) as {
              data: Array<{ event: { data: { object: { metadata: Record<string, string> } } } }>;
            };
            const mine = events.data
              .map((r) => r.event)
              .filter((e) => e.data.object.metadata.order_id === orderId)
              .reverse();
            for (const event of [...mine, ...mine]) {
              const payload = JSON.stringify(event);
              const response = await fetch(webhookUrl, {
                method: 'POST',
                headers: {
                  'content-type': 'application/json',
                  'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
                },
                body: payload,
              });
              expect(response.status).toBe(200);
            }
          }
        };

        for (const step of steps) await Promise.all(step.map(perform));

        // Faults stop; recovery runs until every accepted order settles (bounded: stop rules end it).
        await fetch(`${harness.sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
        for (const orderId of accepted) {
          for (let round = 0; round < 8; round++) {
            const { state } = await loadOrder(harness.runtime.eventStore, orderId);
            if (state.status === 'paid' || state.status === 'failed' || state.status === 'needs_review') break;
            await reconcileOrder({ ...deps, pool: harness.runtime.pool }, orderId, { staleAfterMs: 0, trigger: 'cli' });
          }
        }

        for (const orderId of orderIds) {
          const charged = harness.sandbox.charges({ orderId }).filter(isSucceededCharge);
          const history = await harness.runtime.eventStore.readStream(orderStream(orderId));
          const { state } = await loadOrder(harness.runtime.eventStore, orderId);
          // 1. At most one successful provider charge per order, counted at the provider.
          expect(charged.length).toBeLessThanOrEqual(1);
          // 4. Duplicates never execute work: one ChargeRequested, one provider key per order.
          expect(history.filter((e) => e.type === 'ChargeRequested').length).toBe(accepted.has(orderId) ? 1 : 0);
          expect(
            new Set(
              harness.sandbox
                .requests({ orderId })
                .filter((r) => r.method === 'POST')
                .map((r) => r.idempotencyKey),
            ).size,
          ).toBeLessThanOrEqual(1);
          if (!accepted.has(orderId)) continue;
          // 2. Nothing acknowledged is lost: every accepted order reaches a terminal state.
          expect(['paid', 'failed', 'needs_review']).toContain(state.status);
          // 3. Convergence: local state equals provider state.
          if (state.status === 'paid') {
            expect(charged.map((i) => i.id)).toEqual([state.paymentIntentId]);
            expect(history.filter((e) => e.type === 'ChargeSucceeded')).toHaveLength(1);
          }
          if (state.status === 'failed') expect(charged).toHaveLength(0);
        }
      }),
      { numRuns: Number(process.env.IDEM_PROPERTY_RUNS ?? 25), endOnFailure: true },
    );
  });
});
