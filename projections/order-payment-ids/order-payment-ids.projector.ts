/**
 * `order_payment_ids`: one row per (payment id, order) an order's events name, kept from the first
 * event that named it. Support search looks a quoted `pi_…`/`ch_…` up here, so an order is found by
 * any payment it ever involved, not only by the one its job shows (DESIGN.md §6, §8).
 */
import { ORDER_CATEGORY, type OrderEvent } from '../../modules/payments/order.events';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { eventTime } from '../../src/subscriptions/read-models/event-time';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { orderIdOf } from '../orders/orders.projector';
import { OrderPaymentIdRow } from './order-payment-ids.entity';
import { paymentIdsNamedBy } from './payment-ids-named';

const NAMING_TYPES: OrderEvent['type'][] = [
  'ChargeSucceeded',
  'ChargeFailed',
  'ChargeOutcomeUnknown',
  'ChargeNeedsReview',
  'ChargeReviewResolved',
];

export function evolveOrderPaymentId(
  row: OrderPaymentIdRow | undefined,
  event: RecordedEvent,
  key?: Partial<OrderPaymentIdRow>,
): OrderPaymentIdRow | undefined {
  if (row || !key?.paymentId) return row;
  return {
    paymentId: key.paymentId,
    orderId: orderIdOf(event),
    namedBy: event.type,
    revision: event.revision,
    recordedAt: eventTime(event),
  };
}

export const orderPaymentIdsReadModel: ReadModel<OrderPaymentIdRow> = {
  name: 'order_payment_ids',
  entity: OrderPaymentIdRow,
  filter: { streamCategories: [ORDER_CATEGORY], eventTypes: NAMING_TYPES },
  keyOf: (event) => {
    const orderId = orderIdOf(event);
    return paymentIdsNamedBy(event as unknown as OrderEvent).map((paymentId) => ({ paymentId, orderId }));
  },
  evolve: evolveOrderPaymentId,
  // A row is the first event naming its id, kept: no look-up before writing a batch.
  insertOnly: true,
};
