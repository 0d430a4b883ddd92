/**
 * `payment_ledger`: money movements taken from the order streams. Today the only movement is a
 * captured charge (`ChargeSucceeded`, positive); the first report of a movement is kept.
 */
import { ORDER_CATEGORY, type ChargeSucceeded } from '../../modules/payments/order.events';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { eventTime } from '../../src/subscriptions/read-models/event-time';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { orderIdOf } from '../orders/orders.projector';
import { PaymentLedgerRow } from './payment-ledger.entity';

export function evolveLedgerEntry(row: PaymentLedgerRow | undefined, event: RecordedEvent): PaymentLedgerRow | undefined {
  if (row || event.type !== 'ChargeSucceeded') return row;
  const data = event.data as ChargeSucceeded['data'];
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
  filter: { streamCategories: [ORDER_CATEGORY], eventTypes: ['ChargeSucceeded'] },
  keyOf: (event) =>
    event.type === 'ChargeSucceeded'
      ? { orderId: orderIdOf(event), paymentIntentId: (event.data as ChargeSucceeded['data']).paymentIntentId }
      : undefined,
  evolve: evolveLedgerEntry,
};
