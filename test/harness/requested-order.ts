/**
 * An order whose charge the storefront requested (its ChargeRequested appended through the real
 * decision), for specs that drive the charge worker directly against a store.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../src/event-store/event-store.port';
import { orderCommands } from '../../modules/payments/order.commands';
import { decideRequestCharge } from '../../modules/payments/request-charge/request-charge.decision';

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'storefront', tokenId: 'test' } };

/** A new order `o-<uuid>` of 42.00 EUR for `cus_1` (the customer the specs' sandboxes hold); returns its id. */
export async function requestedOrder(store: EventStore): Promise<string> {
  const orderId = `o-${randomUUID()}`;
  const command = { orderId, amount: 4200, currency: 'EUR', customerId: 'cus_1', requestId: orderId };
  await orderCommands.handle(store, orderId, (order) => decideRequestCharge(command, order), { metadata });
  return orderId;
}
