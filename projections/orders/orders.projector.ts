/**
 * `orders`: one row per order, folded from its `order-<orderId>` stream. Pure: no I/O, no clock.
 */
import { ORDER_CATEGORY, type OrderEvent } from '../../modules/payments/order.events';
import { applyPaymentEvent, type OrderPayment } from '../../modules/payments/order-payment.view';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { eventTime } from '../../src/subscriptions/read-models/event-time';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { OrderRow } from './orders.entity';

const STREAM_PREFIX = `${ORDER_CATEGORY}-`;

export const orderIdOf = (event: RecordedEvent) => event.stream.slice(STREAM_PREFIX.length);

/**
 * The row follows the very rule the stream fold follows (order-payment.view.ts), so GET answers the
 * same from the read model and from the stream. A type this version does not know changes nothing
 * shown, but the row still reflects the stream's latest revision.
 */
export function evolveOrderRow(row: OrderRow | undefined, event: RecordedEvent): OrderRow | undefined {
  // Already reflected (a replayed delivery): the row is a function of the stream up to `revision`.
  if (row && event.revision <= row.revision) return row;
  const e = event as unknown as OrderEvent;
  // Nothing to show before the order was requested; a new request (allowed after ChargeFailed) starts over.
  if (!row && e.type !== 'ChargeRequested') return undefined;
  const at = eventTime(event);
  const payment = row ? paymentOf(row) : ({} as OrderPayment<Date>);
  if (!applyPaymentEvent(payment, e, at)) return row && { ...row, revision: event.revision };
  return rowOf(orderIdOf(event), payment, event.revision, at);
}

const paymentOf = (row: OrderRow): OrderPayment<Date> => ({
  status: row.status,
  amount: row.amount,
  currency: row.currency,
  customerId: row.customerId,
  paymentIntentId: row.paymentIntentId ?? undefined,
  providerChargeId: row.providerChargeId ?? undefined,
  attempts: row.attempts,
  lastError: row.lastError ?? undefined,
  lastAttemptAt: row.lastAttemptAt ?? undefined,
  updatedAt: row.updatedAt,
});

const rowOf = (orderId: string, payment: OrderPayment<Date>, revision: number, at: Date): OrderRow => ({
  orderId,
  status: payment.status,
  amount: payment.amount,
  currency: payment.currency,
  customerId: payment.customerId,
  paymentIntentId: payment.paymentIntentId ?? null,
  providerChargeId: payment.providerChargeId ?? null,
  attempts: payment.attempts,
  lastError: payment.lastError ?? null,
  lastAttemptAt: payment.lastAttemptAt ?? null,
  updatedAt: payment.updatedAt ?? at,
  revision,
});

export const ordersReadModel: ReadModel<OrderRow> = {
  name: 'orders',
  entity: OrderRow,
  filter: { streamCategories: [ORDER_CATEGORY] },
  keyOf: (event) => ({ orderId: orderIdOf(event) }),
  evolve: evolveOrderRow,
};
