/**
 * `orders`: one row per order, folded from its `order-<orderId>` stream. Pure: no I/O, no clock.
 */
import { ORDER_CATEGORY, type OrderEvent } from '../../modules/payments/order.events';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { eventTime } from '../../src/subscriptions/read-models/event-time';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { OrderRow } from './orders.entity';

const STREAM_PREFIX = `${ORDER_CATEGORY}-`;

export const orderIdOf = (event: RecordedEvent) => event.stream.slice(STREAM_PREFIX.length);

export function evolveOrderRow(row: OrderRow | undefined, event: RecordedEvent): OrderRow | undefined {
  // Already reflected (a replayed delivery): the row is a function of the stream up to `revision`.
  if (row && event.revision <= row.revision) return row;
  const at = eventTime(event);
  const e = event as unknown as OrderEvent;
  if (e.type === 'ChargeRequested') {
    // The first request creates the order; a new request (allowed after ChargeFailed) starts over.
    const { amount, currency, customerId } = e.data;
    return {
      orderId: orderIdOf(event),
      status: 'pending',
      amount,
      currency,
      customerId,
      paymentIntentId: null,
      providerChargeId: null,
      attempts: 0,
      lastError: null,
      lastAttemptAt: null,
      updatedAt: at,
      revision: event.revision,
    };
  }
  if (!row) return undefined; // nothing to show before the order was requested
  const next: OrderRow = { ...row, updatedAt: at, revision: event.revision };
  switch (e.type) {
    case 'ChargeAttemptStarted':
      return { ...next, status: 'processing', attempts: row.attempts + 1, lastAttemptAt: at };
    case 'ChargeSucceeded':
      return {
        ...next,
        status: 'paid',
        paymentIntentId: e.data.paymentIntentId,
        providerChargeId: e.data.providerChargeId ?? row.providerChargeId,
        lastError: null,
      };
    case 'ChargeFailed':
      return {
        ...next,
        status: 'failed',
        paymentIntentId: e.data.paymentIntentId ?? row.paymentIntentId,
        lastError: `${e.data.declineCode}: ${e.data.reason}`,
      };
    case 'ChargeOutcomeUnknown':
      return { ...next, status: 'unknown', lastError: e.data.error };
    case 'ChargeNeedsReview':
      return { ...next, status: 'needs_review', lastError: e.data.reason };
    case 'ChargeReviewResolved':
      return { ...next, status: e.data.resolution };
    default:
      return next; // a type this version does not know: still the stream's latest revision
  }
}

export const ordersReadModel: ReadModel<OrderRow> = {
  name: 'orders',
  entity: OrderRow,
  filter: { streamCategories: [ORDER_CATEGORY] },
  keyOf: (event) => ({ orderId: orderIdOf(event) }),
  evolve: evolveOrderRow,
};
