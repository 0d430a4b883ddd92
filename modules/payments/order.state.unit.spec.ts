/**
 * The order fold writes into a copy it makes per event (order.state.ts): the states it was given must
 * never change, whatever the history, and every state keeps one shape.
 */
import type { OrderEvent } from './order.events';
import { evolveOrder, initialOrderState, type OrderState } from './order.state';

type Recorded = OrderEvent & { metadata?: { recordedAt: string } };

const at = (second: number) => ({ recordedAt: `2026-11-29T10:00:${String(second).padStart(2, '0')}.000Z` });

const history: Recorded[] = [
  {
    type: 'ChargeRequested',
    data: {
      orderId: '481',
      amount: 1999,
      currency: 'EUR',
      customerId: 'c1',
      requestFingerprint: 'f1',
      idempotencyKey: 'k1',
      providerKey: 'idem-order-481-r1',
      requestNumber: 1,
    },
    metadata: at(0),
  },
  { type: 'ChargeAttemptStarted', data: { orderId: '481', attempt: 1, workerId: 'w', providerKey: 'idem-order-481-r1' }, metadata: at(1) },
  {
    type: 'ChargeFailed',
    data: { orderId: '481', attempt: 1, declineCode: 'card_declined', reason: 'declined', paymentIntentId: 'pi_1' },
    metadata: at(2),
  },
  {
    type: 'ChargeRequested',
    data: {
      orderId: '481',
      amount: 1999,
      currency: 'EUR',
      customerId: 'c1',
      requestFingerprint: 'f2',
      idempotencyKey: 'k2',
      providerKey: 'idem-order-481-r2',
      requestNumber: 2,
    },
    metadata: at(3),
  },
  { type: 'ChargeAttemptStarted', data: { orderId: '481', attempt: 1, workerId: 'w', providerKey: 'idem-order-481-r2' }, metadata: at(4) },
  { type: 'ChargeOutcomeUnknown', data: { orderId: '481', attempt: 1, error: 'timeout' }, metadata: at(5) },
  {
    type: 'ChargeSucceeded',
    data: { orderId: '481', paymentIntentId: 'pi_2', amount: 1999, currency: 'EUR', recovered: true },
    metadata: at(6),
  },
];

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

it('folds a declined first request and a recovered second one', () => {
  const state = history.reduce(evolveOrder, initialOrderState());
  expect(state).toMatchObject({
    exists: true,
    status: 'paid',
    requestNumber: 2,
    attempts: 1,
    consecutiveUnknown: 0,
    paymentIntentId: 'pi_2',
    recovered: true,
    providerKey: 'idem-order-481-r2',
    idempotencyKeys: { k1: 'f1', k2: 'f2' },
    lastAttemptAt: at(4).recordedAt,
    updatedAt: at(6).recordedAt,
    // Paid: no error stands. The timeout it was recovered from stays in the history (and `recovered`).
    lastError: undefined,
  });
});

it('starts a new request clean: nothing of the declined one is shown as if it belonged to the new one', () => {
  expect(history.slice(0, 4).reduce(evolveOrder, initialOrderState())).toMatchObject({
    status: 'pending',
    attempts: 0,
    paymentIntentId: undefined,
    lastError: undefined,
    lastAttemptAt: undefined,
    updatedAt: at(3).recordedAt,
  });
  const recoveredCharge: Recorded = {
    type: 'ChargeSucceeded',
    data: { orderId: '481', paymentIntentId: 'pi_1', providerChargeId: 'ch_1', amount: 1999, currency: 'EUR', recovered: true },
    metadata: at(2),
  };
  // Not a path the decisions take (a paid order is never requested again); the fold still carries nothing over.
  expect([history[0], history[1], recoveredCharge, history[3]].reduce(evolveOrder, initialOrderState())).toMatchObject({
    providerChargeId: undefined,
    recovered: undefined,
  });
});

it('never changes a state it was given, and keeps every state in one shape', () => {
  const states: OrderState[] = [deepFreeze(initialOrderState())];
  // Frozen inputs: a write into one of them throws (modules are strict code).
  for (const event of history) states.push(deepFreeze(evolveOrder(states.at(-1)!, event)));
  const snapshots = states.map((state) => JSON.stringify(state));
  for (const event of history) states.forEach((state) => evolveOrder(state, event));
  expect(states.map((state) => JSON.stringify(state))).toEqual(snapshots);
  expect(new Set(states.map((state) => Object.keys(state).join()))).toEqual(new Set([Object.keys(initialOrderState()).join()]));
  expect(states[3]).toMatchObject({ status: 'failed', lastError: 'card_declined: declined', idempotencyKeys: { k1: 'f1' } });
});

it('returns the same state for an event that is not an order event', () => {
  const state = initialOrderState();
  expect(evolveOrder(state, { type: 'ContactImported', data: {} } as unknown as Recorded)).toBe(state);
});
