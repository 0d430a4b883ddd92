/**
 * `payment_ledger`: money movements taken from the order streams. Today the only movement is a
 * captured charge, positive: reported by `ChargeSucceeded`, or found at the provider by support when
 * it resolved a review as paid (`ChargeReviewResolved` with its payment). The first report of a
 * movement is kept.
 */
import { ORDER_CATEGORY, type ChargeReviewResolved, type ChargeSucceeded } from '../../modules/payments/order.events';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { eventTime } from '../../src/subscriptions/read-models/event-time';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { orderIdOf } from '../orders/orders.projector';
import { PaymentLedgerRow } from './payment-ledger.entity';

/** The movement an event reports, if any. */
function movementOf(event: RecordedEvent): ChargeSucceeded['data'] | undefined {
  if (event.type === 'ChargeSucceeded') return event.data as ChargeSucceeded['data'];
  const payment = event.type === 'ChargeReviewResolved' ? (event.data as ChargeReviewResolved['data']).payment : undefined;
  return payment && { orderId: orderIdOf(event), ...payment, recovered: true };
}

export function evolveLedgerEntry(row: PaymentLedgerRow | undefined, event: RecordedEvent): PaymentLedgerRow | undefined {
  const data = row ? undefined : movementOf(event);
  if (!data) return row;
  return {
    orderId: orderIdOf(event),
    paymentIntentId: data.paymentIntentId,
    kind: 'charge',
    amount: data.amount,
    currency: data.currency,
    providerReference: data.providerChargeId ?? data.paymentIntentId,
    recovered: Boolean(data.recovered),
    eventId: event.id,
    revision: event.revision,
    recordedAt: eventTime(event),
  };
}

export const paymentLedgerReadModel: ReadModel<PaymentLedgerRow> = {
  name: 'payment_ledger',
  entity: PaymentLedgerRow,
  filter: { streamCategories: [ORDER_CATEGORY], eventTypes: ['ChargeSucceeded', 'ChargeReviewResolved'] },
  keyOf: (event) => {
    const movement = movementOf(event);
    return movement ? { orderId: orderIdOf(event), paymentIntentId: movement.paymentIntentId } : undefined;
  },
  evolve: evolveLedgerEntry,
};
