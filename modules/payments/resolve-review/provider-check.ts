/**
 * What the provider holds for an order, asked before a person may record it as failed or as paid. A
 * later request charges under the next key, so a charge that did go through under any earlier key
 * would be followed by a second one; and "paid" is only true of money the provider holds.
 *
 * Nothing here can charge. The check lists the customer's payments since the order's first attempt
 * (strongly consistent, unlike search: docs.stripe.com/search, "Data freshness"), retrieves by id
 * every intent the order recorded, and searches by `metadata.order_id`: a payment made for the order
 * outside Idem without a customer is in no customer's list, and when its webhook was lost search is
 * the only way to see it (it lags, "usually within a minute", so it adds to the strongly consistent
 * sources and stands in for none of them). It never replays a key's create, the worker's way to learn
 * an outcome: a create that never reached the provider would be executed by the replay, and the check
 * itself would charge the card.
 *
 * A key under which the provider shows no payment is answered "nothing happened" only once no request
 * under it can still be executing there: our client stops waiting after its timeout, but the provider
 * finishes a request it received. Until IN_FLIGHT_MARGIN_MS after the key's last attempt that got no
 * answer began, it is `unanswered` (the resolution is refused with 503; asking again later answers
 * it). An attempt the provider answered (a request refused at validation, where Stripe ran nothing; a
 * decline) is over there, and needs no wait.
 */
import type { EventStore, RecordedEvent } from '../../../src/event-store/event-store.port';
import { providerKeyUses } from '../charge-order/provider-keys';
import { orderStream, type ChargeRequested } from '../order.events';
import type { PaymentGateway, ProviderPayment } from '../payment-gateway/payment-gateway.port';

export interface ProviderCheck {
  /** Intent ids that took the customer's money. */
  succeeded: string[];
  /** Those payments as the provider shows them (amount, currency, charge), in the order of `succeeded`. */
  succeededPayments?: ProviderPayment[];
  /** Intent ids still processing: they may yet take it. */
  pending: string[];
  /** Keys whose request may still be executing at the provider, which shows nothing under them yet. */
  unanswered: string[];
  /** When `unanswered` is not empty: in how many seconds asking again can answer them. */
  retryAfterSeconds?: number;
}

/** Asking again after the provider did not answer at all: soon, it may be a blip. */
const PROVIDER_DOWN_RETRY_S = 30;

/** Far longer than our provider timeout (IDEM_PROVIDER_TIMEOUT_MS, default 10 s) and than the provider works on a request. */
export const IN_FLIGHT_MARGIN_MS = 5 * 60_000;
/** The provider stamps `created` with its own clock: list from an hour before our first attempt. */
const CLOCK_MARGIN_MS = 60 * 60_000;

export async function checkProviderForOrder(
  gateway: PaymentGateway,
  store: EventStore,
  orderId: string,
  now: Date,
): Promise<ProviderCheck> {
  const history = await store.readStream(orderStream(orderId));
  const uses = providerKeyUses(history);
  const requests = chargeRequestsOf(history);
  const check: ProviderCheck = { succeeded: [], pending: [], unanswered: [] };
  if (!requests.length) return check;

  // Not only what Idem sent: a payment made for the order outside Idem (its metadata names the order)
  // takes the money as surely, even when no attempt of ours ever reached the provider (an order sent
  // to review before its first attempt). So the customers of every request are listed, from the first
  // request on, every intent the order's history names is retrieved (those webhooks reported too), and
  // search finds one that names the order but no customer of it.
  const found = new Map<string, ProviderPayment>();
  const since = new Date(
    Math.min(...requests.map((request) => request.at), ...uses.map((use) => use.firstUsedAt.getTime())) - CLOCK_MARGIN_MS,
  );
  try {
    for (const customerId of new Set(requests.map((request) => request.customerId))) {
      for (const payment of await gateway.listPayments(customerId, since)) {
        if (payment.orderId === orderId) found.set(payment.paymentIntentId, payment);
      }
    }
    for (const id of recordedIntentIds(history)) {
      if (found.has(id)) continue;
      const payment = await gateway.retrievePayment(id);
      if (payment) found.set(id, payment);
    }
    for (const hit of await gateway.findPayments(orderId)) {
      if (hit.orderId !== orderId || found.has(hit.paymentIntentId)) continue;
      // Search may show an older state of the intent: what counts is how it stands now.
      found.set(hit.paymentIntentId, (await gateway.retrievePayment(hit.paymentIntentId)) ?? hit);
    }
  } catch {
    // The provider did not answer (a timeout, a 5xx): nothing can be answered for now (503, ask again).
    const keys = [...new Set(requests.map((request) => request.providerKey))];
    return { ...check, unanswered: keys, retryAfterSeconds: PROVIDER_DOWN_RETRY_S };
  }

  const shownKeys = new Set([...found.values()].map((payment) => payment.providerKey));
  let answerableAt = 0;
  for (const { instruction, lastUnansweredAt } of uses) {
    const key = instruction.idempotencyKey;
    // Every attempt the provider answered is over there: only one it did not answer can be executing.
    if (lastUnansweredAt === undefined) continue;
    const settledAt = lastUnansweredAt.getTime() + IN_FLIGHT_MARGIN_MS;
    if (!shownKeys.has(key) && now.getTime() < settledAt) {
      check.unanswered.push(key);
      answerableAt = Math.max(answerableAt, settledAt);
    }
  }
  if (check.unanswered.length) check.retryAfterSeconds = Math.ceil((answerableAt - now.getTime()) / 1000);
  for (const payment of found.values()) {
    if (payment.status === 'succeeded') {
      check.succeeded.push(payment.paymentIntentId);
      (check.succeededPayments ??= []).push(payment);
    } else if (payment.status === 'pending') check.pending.push(payment.paymentIntentId);
  }
  return check;
}

/** Each charge request of the order: whose card it was for, under which key, and when it was recorded. */
function chargeRequestsOf(history: RecordedEvent[]): Array<{ customerId: string; providerKey: string; at: number }> {
  return history
    .filter((event) => event.type === 'ChargeRequested')
    .map((event) => {
      const data = event.data as unknown as ChargeRequested['data'];
      return {
        customerId: data.customerId,
        providerKey: data.providerKey,
        at: Date.parse(event.metadata.recordedAt) || event.created.getTime(),
      };
    });
}

/** Every intent the history names: the order's own outcomes, and payments that sent it to review. */
function recordedIntentIds(history: RecordedEvent[]): string[] {
  return history.map((event) => event.data.paymentIntentId).filter((id): id is string => typeof id === 'string');
}
