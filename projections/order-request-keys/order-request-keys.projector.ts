/**
 * `order_request_keys`: one row per (customer id or request id, order) an order's `ChargeRequested`
 * events carry, kept from the first request that carried it. Support search looks `q` up here, so an
 * order is found by every customer and request that asked for it, not only by its latest request's,
 * which is all its job shows (DESIGN.md §6: search by customer id and request id).
 */
import { ORDER_CATEGORY, type OrderEvent } from '../../modules/payments/order.events';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { eventTime } from '../../src/subscriptions/read-models/event-time';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { orderIdOf } from '../orders/orders.projector';
import { requestIdOf } from '../support-jobs/support-jobs.projector';
import { OrderRequestKeyRow, type OrderRequestKeyKind } from './order-request-keys.entity';

/** The ids a charge request carries: its customer's and the X-Request-Id support also searches jobs by. */
function keysOf(event: RecordedEvent): Array<{ key: string; kind: OrderRequestKeyKind }> {
  const { customerId } = (event as unknown as Extract<OrderEvent, { type: 'ChargeRequested' }>).data;
  return [
    { key: customerId, kind: 'customer' as const },
    { key: requestIdOf(event), kind: 'request' as const },
  ].filter(({ key }) => typeof key === 'string' && key.length > 0);
}

export function evolveOrderRequestKey(
  row: OrderRequestKeyRow | undefined,
  event: RecordedEvent,
  key?: Partial<OrderRequestKeyRow>,
): OrderRequestKeyRow | undefined {
  if (row || !key?.key) return row;
  const kind = keysOf(event).find((named) => named.key === key.key)?.kind;
  if (!kind) return row;
  return { key: key.key, orderId: orderIdOf(event), kind, revision: event.revision, recordedAt: eventTime(event) };
}

export const orderRequestKeysReadModel: ReadModel<OrderRequestKeyRow> = {
  name: 'order_request_keys',
  entity: OrderRequestKeyRow,
  filter: { streamCategories: [ORDER_CATEGORY], eventTypes: ['ChargeRequested'] },
  keyOf: (event) => {
    const orderId = orderIdOf(event);
    return keysOf(event).map(({ key }) => ({ key, orderId }));
  },
  evolve: evolveOrderRequestKey,
  // A row is the first request carrying its id, kept: no look-up before writing a batch.
  insertOnly: true,
};
