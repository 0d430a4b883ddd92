/**
 * What GET /v1/orders/{orderId} shows of an order, and what each event does to it: the one rule both
 * answers follow — the stream fold (order.state.ts: POST /charge, GET ?minRevision) and the orders read
 * model (projections/orders) — so the same history can never read two ways. Pure: no I/O, no clock.
 * `Time` is how the caller holds a moment (the fold: ISO strings; the read model: Dates).
 */
import { isProcessingAtProvider, type OrderEvent } from './order.events';

export type OrderStatus = 'pending' | 'processing' | 'paid' | 'failed' | 'unknown' | 'needs_review';

export interface OrderPayment<Time> {
  status: OrderStatus;
  amount: number;
  currency: string;
  customerId: string;
  paymentIntentId?: string;
  providerChargeId?: string;
  /** Attempts of the current request. */
  attempts: number;
  lastError?: string;
  lastAttemptAt?: Time;
  updatedAt?: Time;
}

/**
 * Writes what `event` means into `next` (a copy made for this event alone); false if it means nothing
 * to an order. `at` is when it was recorded; without one, the times stay as they were.
 *
 * A new request starts clean: nothing of a declined request (its intent, error, attempt time) is shown
 * as if it belonged to the new one. `lastError` is the error that stands now (DESIGN.md §6: the order's
 * payment *state*): it explains an order that is unknown, failed, in review, or being retried after
 * one. A paid order has none: a charge that succeeded after a timeout, or a review resolved as paid,
 * shows no error, and the attempts that went wrong stay in the order's history (GET
 * /v1/orders/{orderId}/events: the ChargeOutcomeUnknown, the ChargeSucceeded marked `recovered`).
 * A review resolved as failed keeps the reason it went to review: it is why the order failed.
 */
export function applyPaymentEvent<Time>(next: OrderPayment<Time>, event: OrderEvent, at: Time | undefined): boolean {
  if (!applyPaymentFact(next, event)) return false;
  if (at !== undefined) {
    next.updatedAt = at;
    if (event.type === 'ChargeAttemptStarted') next.lastAttemptAt = at;
  }
  return true;
}

function applyPaymentFact<Time>(next: OrderPayment<Time>, event: OrderEvent): boolean {
  switch (event.type) {
    case 'ChargeRequested':
      next.status = 'pending';
      next.amount = event.data.amount;
      next.currency = event.data.currency;
      next.customerId = event.data.customerId;
      next.paymentIntentId = undefined;
      next.providerChargeId = undefined;
      next.attempts = 0;
      next.lastError = undefined;
      next.lastAttemptAt = undefined;
      return true;
    case 'ChargeAttemptStarted':
      next.status = 'processing';
      next.attempts = event.data.attempt;
      return true;
    case 'ChargeSucceeded':
      next.status = 'paid';
      next.lastError = undefined;
      next.paymentIntentId = event.data.paymentIntentId;
      next.providerChargeId = event.data.providerChargeId ?? next.providerChargeId;
      return true;
    case 'ChargeFailed':
      next.status = 'failed';
      next.lastError = `${event.data.declineCode}: ${event.data.reason}`;
      next.paymentIntentId = event.data.paymentIntentId ?? next.paymentIntentId;
      return true;
    case 'ChargeOutcomeUnknown':
      // A payment the provider reports in flight is processing, as the storefront should read it.
      next.status = isProcessingAtProvider(event) ? 'processing' : 'unknown';
      next.lastError = event.data.error;
      return true;
    case 'ChargeNeedsReview':
      next.status = 'needs_review';
      next.lastError = event.data.reason;
      return true;
    case 'ChargeReviewResolved':
      next.status = event.data.resolution === 'paid' ? 'paid' : 'failed';
      if (event.data.resolution === 'paid') next.lastError = undefined;
      // The payment support found at the provider is the order's payment from now on.
      if (event.data.payment) {
        next.paymentIntentId = event.data.payment.paymentIntentId;
        next.providerChargeId = event.data.payment.providerChargeId ?? next.providerChargeId;
      }
      return true;
    default:
      return false;
  }
}
