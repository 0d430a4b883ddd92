/**
 * What the provider holds for an order, asked before a person may record it as failed. A later
 * request charges under the next key, so a charge that did go through under any earlier key would be
 * followed by a second one. The rule is the worker's (charge-order.job): a key still within its
 * window is asked by replaying its create (the stored answer comes back, whatever search shows yet);
 * older keys by search — then long consistent — and by id for every intent the order recorded.
 */
import type { EventStore, RecordedEvent } from '../../../src/event-store/event-store.port';
import { canReplay, providerKeyUses } from '../charge-order/provider-keys';
import { orderStream } from '../order.events';
import type { PaymentGateway, ProviderPayment } from '../payment-gateway/payment-gateway.port';

export interface ProviderCheck {
  /** Intent ids that took the customer's money. */
  succeeded: string[];
  /** Intent ids still processing: they may yet take it. */
  pending: string[];
  /** Keys whose outcome the provider could not tell (a timeout, a 5xx, a request still in flight). */
  unanswered: string[];
}

export async function checkProviderForOrder(
  gateway: PaymentGateway,
  store: EventStore,
  orderId: string,
  now: Date,
): Promise<ProviderCheck> {
  const history = await store.readStream(orderStream(orderId));
  const check: ProviderCheck = { succeeded: [], pending: [], unanswered: [] };
  const found = new Map<string, ProviderPayment>();
  let olderKeys = false;
  for (const use of providerKeyUses(history)) {
    if (!canReplay(use, now)) {
      olderKeys = true;
      continue;
    }
    const outcome = await gateway.charge(use.instruction);
    if (outcome.kind === 'succeeded') found.set(outcome.payment.paymentIntentId, outcome.payment);
    else if (outcome.kind === 'pending') check.pending.push(outcome.paymentIntentId);
    else if (outcome.kind === 'unknown') check.unanswered.push(use.instruction.idempotencyKey);
  }
  if (olderKeys) {
    for (const payment of await gateway.findPayments(orderId)) found.set(payment.paymentIntentId, payment);
    for (const id of recordedIntentIds(history)) {
      if (found.has(id)) continue;
      const payment = await gateway.retrievePayment(id);
      if (payment) found.set(id, payment);
    }
  }
  for (const payment of found.values()) {
    if (payment.status === 'succeeded') check.succeeded.push(payment.paymentIntentId);
    else if (payment.status === 'pending' && !check.pending.includes(payment.paymentIntentId)) check.pending.push(payment.paymentIntentId);
  }
  return check;
}

function recordedIntentIds(history: RecordedEvent[]): string[] {
  return history.map((event) => event.data.paymentIntentId).filter((id): id is string => typeof id === 'string');
}
