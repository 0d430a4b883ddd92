/**
 * What an order's payment stream means, folded from its events. Pure: no I/O, no clock.
 */
import type { OrderEvent } from './order.events';

export type OrderStatus = 'pending' | 'processing' | 'paid' | 'failed' | 'unknown' | 'needs_review';

export interface OrderState {
  exists: boolean;
  orderId: string;
  status: OrderStatus;
  amount: number;
  currency: string;
  customerId: string;
  description?: string;
  requestFingerprint: string;
  /** Idempotency-Key headers seen on requests that created a ChargeRequested, with their fingerprints. */
  idempotencyKeys: Record<string, string>;
  providerKey: string;
  requestNumber: number;
  /** Attempts of the current request. */
  attempts: number;
  consecutiveUnknown: number;
  paymentIntentId?: string;
  providerChargeId?: string;
  recovered?: boolean;
  lastError?: string;
  lastAttemptAt?: string;
  updatedAt?: string;
  /**
   * The correlation id (the X-Request-Id) of the request behind the current ChargeRequested: the
   * worker's events for that charge carry it, so one id finds the request, its events and its job.
   */
  correlationId?: string;
}

/**
 * Every field is present from the start, optional ones as undefined, so every state object has one
 * shape: copying a state is then V8's fast clone. The fold runs on every command and every
 * duplicate (a replay folds the whole stream), where spreads of differently shaped objects were
 * the service's single hottest function.
 */
export const initialOrderState = (): OrderState => ({
  exists: false,
  orderId: '',
  status: 'pending',
  amount: 0,
  currency: '',
  customerId: '',
  description: undefined,
  requestFingerprint: '',
  idempotencyKeys: {},
  providerKey: '',
  requestNumber: 0,
  attempts: 0,
  consecutiveUnknown: 0,
  paymentIntentId: undefined,
  providerChargeId: undefined,
  recovered: undefined,
  lastError: undefined,
  lastAttemptAt: undefined,
  updatedAt: undefined,
  correlationId: undefined,
});

/** Terminal for the storefront: the answer will not change without a new request or a human. */
export const isSettled = (status: OrderStatus) => status === 'paid' || status === 'failed' || status === 'needs_review';

/** Pure: returns a new state (or `state` itself for an event that means nothing to an order). */
export function evolveOrder(
  state: OrderState,
  event: OrderEvent & { metadata?: { recordedAt: string; correlationId?: string } },
): OrderState {
  const next = { ...state };
  if (!applyOrderEvent(next, event)) return state;
  const at = event.metadata?.recordedAt;
  if (at !== undefined) {
    next.updatedAt = at;
    if (event.type === 'ChargeAttemptStarted') next.lastAttemptAt = at;
  }
  if (event.type === 'ChargeRequested') next.correlationId = event.metadata?.correlationId;
  return next;
}

/** Writes what `event` means into `next`, a copy made for this event alone; false if it means nothing. */
function applyOrderEvent(next: OrderState, event: OrderEvent): boolean {
  switch (event.type) {
    case 'ChargeRequested': {
      const { data } = event;
      next.exists = true;
      next.orderId = data.orderId;
      next.status = 'pending';
      next.amount = data.amount;
      next.currency = data.currency;
      next.customerId = data.customerId;
      next.description = data.description;
      next.requestFingerprint = data.requestFingerprint;
      if (data.idempotencyKey) next.idempotencyKeys = { ...next.idempotencyKeys, [data.idempotencyKey]: data.requestFingerprint };
      next.providerKey = data.providerKey;
      next.requestNumber = data.requestNumber;
      next.attempts = 0;
      next.consecutiveUnknown = 0;
      next.lastError = undefined;
      return true;
    }
    case 'ChargeAttemptStarted':
      next.status = 'processing';
      next.attempts = event.data.attempt;
      return true;
    case 'ChargeSucceeded':
      next.status = 'paid';
      next.paymentIntentId = event.data.paymentIntentId;
      next.providerChargeId = event.data.providerChargeId;
      next.recovered = event.data.recovered;
      next.consecutiveUnknown = 0;
      return true;
    case 'ChargeFailed':
      next.status = 'failed';
      next.lastError = `${event.data.declineCode}: ${event.data.reason}`;
      next.paymentIntentId = event.data.paymentIntentId ?? next.paymentIntentId;
      return true;
    case 'ChargeOutcomeUnknown':
      next.status = 'unknown';
      next.lastError = event.data.error;
      next.consecutiveUnknown += 1;
      return true;
    case 'ChargeNeedsReview':
      next.status = 'needs_review';
      next.lastError = event.data.reason;
      return true;
    case 'ChargeReviewResolved':
      next.status = event.data.resolution === 'paid' ? 'paid' : 'failed';
      return true;
    default:
      return false;
  }
}
