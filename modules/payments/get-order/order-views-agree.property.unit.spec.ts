/**
 * GET /v1/orders/{orderId} answers from the orders read model, or — for `?minRevision=` and POST
 * /charge — from a fold of the stream (get-order.controller.ts). Whatever the history, both must show
 * the same order. `idem projections verify` cannot see a difference: it folds with the projector alone.
 */
import fc from 'fast-check';
import { ordersReadModel } from '../../../projections/orders/orders.projector';
import { orderViewFromRow } from '../../../projections/orders/orders.queries';
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import { foldReadModel } from '../../../src/subscriptions/read-models/read-model';
import { foldOrder } from '../load-order';
import type { OrderEvent } from '../order.events';
import { toOrderView } from '../order.view';

const orderId = '481';
const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });

const requested = fc
  .record({
    amount: fc.integer({ min: 1, max: 5000 }),
    currency: fc.constantFrom('EUR', 'USD'),
    customerId: fc.constantFrom('c1', 'c2'),
    requestNumber: fc.integer({ min: 1, max: 3 }),
  })
  .map((data): OrderEvent => ({
    type: 'ChargeRequested',
    data: { orderId, ...data, requestFingerprint: `f${data.amount}`, providerKey: `idem-order-${orderId}-r${data.requestNumber}` },
  }));

/** Any order event with any of its optional fields, in any order: the two answers must agree beyond the valid paths too. */
const anyEvent: fc.Arbitrary<{ type: string; data: object }> = fc.oneof(
  requested,
  fc.integer({ min: 1, max: 6 }).map((attempt) => ({
    type: 'ChargeAttemptStarted',
    data: { orderId, attempt, workerId: 'w', providerKey: 'k' },
  })),
  fc
    .record({
      paymentIntentId: fc.constantFrom('pi_1', 'pi_2'),
      providerChargeId: maybe(fc.constantFrom('ch_1', 'ch_2')),
      recovered: fc.boolean(),
    })
    .map((data) => ({ type: 'ChargeSucceeded', data: { orderId, amount: 1000, currency: 'EUR', ...data } })),
  fc
    .record({
      declineCode: fc.constantFrom('card_declined', 'insufficient_funds'),
      paymentIntentId: maybe(fc.constantFrom('pi_1', 'pi_3')),
    })
    .map((data) => ({ type: 'ChargeFailed', data: { orderId, attempt: 1, reason: 'declined', ...data } })),
  fc.constantFrom('timeout', 'ECONNRESET').map((error) => ({ type: 'ChargeOutcomeUnknown', data: { orderId, attempt: 1, error } })),
  fc
    .constantFrom('5 consecutive unknown outcomes', 'contradiction')
    .map((reason) => ({ type: 'ChargeNeedsReview', data: { orderId, reason } })),
  fc
    .constantFrom('paid', 'failed')
    .map((resolution) => ({ type: 'ChargeReviewResolved', data: { orderId, actor: 'support', note: 'n', resolution } })),
  // A type a later version may write: neither answer may change what it shows for it.
  fc.constant({ type: 'ChargeRefundNoted', data: { orderId } }),
);

/** Each event with the milliseconds since the one before (ties included). */
const histories = fc.tuple(fc.boolean(), requested, fc.array(fc.tuple(anyEvent, fc.nat({ max: 90_000 })), { maxLength: 25 }));

function recorded(events: Array<[{ type: string; data: object }, number]>): RecordedEvent[] {
  let time = Date.parse('2026-11-29T10:00:00.000Z');
  return events.map(([event, gapMs], revision) => {
    time += gapMs;
    const at = new Date(time);
    return {
      id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
      stream: `order-${orderId}`,
      revision,
      position: `1/${revision}` as RecordedEvent['position'],
      type: event.type,
      data: event.data as Record<string, unknown>,
      metadata: { correlationId: 'req-1', causationId: 'req-1', actor: { role: 'worker', tokenId: 'w' }, recordedAt: at.toISOString() },
      created: at,
    };
  });
}

describe('the order view from the stream fold and from the read model row', () => {
  it('is the same for every history', () => {
    fc.assert(
      fc.property(histories, ([startsWithRequest, first, rest]) => {
        const events = recorded(startsWithRequest ? [[first, 0], ...rest] : rest);
        const state = foldOrder(events);
        const row = foldReadModel(ordersReadModel, events).get(orderId);
        expect(row !== undefined).toBe(state.exists);
        if (row) expect(orderViewFromRow(row)).toStrictEqual(toOrderView(state, events.length - 1));
      }),
      { numRuns: 200 },
    );
  });

  // `lastError` is the error that stands now: a paid order has none, whatever went wrong before it was paid.
  it('shows no last error on a paid order, however many attempts went wrong first', () => {
    fc.assert(
      fc.property(histories, ([, first, rest]) => {
        const events = recorded([[first, 0], ...rest]);
        const state = foldOrder(events);
        const row = foldReadModel(ordersReadModel, events).get(orderId)!;
        if (state.status === 'paid') expect(toOrderView(state, events.length - 1).lastError).toBeUndefined();
        if (row.status === 'paid') expect(orderViewFromRow(row).lastError).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});

describe('GET /v1/orders/{orderId} of an order paid after a failed attempt', () => {
  type Step = { type: string; data: object };
  const steps = (...events: Step[]) => recorded(events.map((event): [Step, number] => [event, 1000]));
  const requested: Step = {
    type: 'ChargeRequested',
    data: { orderId, amount: 1000, currency: 'EUR', customerId: 'c1', requestFingerprint: 'f', providerKey: 'k' },
  };
  const attempt = (n: number): Step => ({ type: 'ChargeAttemptStarted', data: { orderId, attempt: n, workerId: 'w', providerKey: 'k' } });
  const viewOf = (events: RecordedEvent[]) => toOrderView(foldOrder(events), events.length - 1);

  it('shows the error while the charge is retried, and none once the order is paid', () => {
    const timedOut: Step = { type: 'ChargeOutcomeUnknown', data: { orderId, attempt: 1, error: 'ETIMEDOUT' } };
    const succeeded: Step = {
      type: 'ChargeSucceeded',
      data: { orderId, paymentIntentId: 'pi_1', amount: 1000, currency: 'EUR', recovered: true },
    };
    expect(viewOf(steps(requested, attempt(1), timedOut, attempt(2)))).toMatchObject({ status: 'processing', lastError: 'ETIMEDOUT' });
    const events = steps(requested, attempt(1), timedOut, attempt(2), succeeded);
    const paid = viewOf(events);
    expect(paid).toMatchObject({ status: 'paid', attempts: 2 });
    expect(paid).not.toHaveProperty('lastError');
    expect(orderViewFromRow(foldReadModel(ordersReadModel, events).get(orderId)!)).toStrictEqual(paid);
  });

  it('shows no error once a review is resolved as paid, and keeps the reason when it is resolved as failed', () => {
    const review: Step = { type: 'ChargeNeedsReview', data: { orderId, reason: '5 consecutive unknown outcomes' } };
    const resolved = (resolution: 'paid' | 'failed'): Step => ({
      type: 'ChargeReviewResolved',
      data: { orderId, actor: 'support', note: 'n', resolution },
    });
    const asPaid = steps(requested, attempt(1), review, resolved('paid'));
    expect(viewOf(asPaid)).toMatchObject({ status: 'paid' });
    expect(viewOf(asPaid)).not.toHaveProperty('lastError');
    expect(orderViewFromRow(foldReadModel(ordersReadModel, asPaid).get(orderId)!)).toStrictEqual(viewOf(asPaid));
    expect(viewOf(steps(requested, attempt(1), review, resolved('failed')))).toMatchObject({
      status: 'failed',
      lastError: '5 consecutive unknown outcomes',
    });
  });
});
