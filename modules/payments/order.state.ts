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
}

export const initialOrderState = (): OrderState => ({
  exists: false,
  orderId: '',
  status: 'pending',
  amount: 0,
  currency: '',
  customerId: '',
  requestFingerprint: '',
  idempotencyKeys: {},
  providerKey: '',
  requestNumber: 0,
  attempts: 0,
  consecutiveUnknown: 0,
});

/** Terminal for the storefront: the answer will not change without a new request or a human. */
export const isSettled = (status: OrderStatus) => status === 'paid' || status === 'failed' || status === 'needs_review';

export function evolveOrder(state: OrderState, event: OrderEvent & { metadata?: { recordedAt: string } }): OrderState {
  const at = event.metadata?.recordedAt;
  const next = applyOrderEvent(state, event);
  if (next === state) return state;
  return {
    ...next,
    updatedAt: at ?? next.updatedAt,
    lastAttemptAt: event.type === 'ChargeAttemptStarted' ? (at ?? next.lastAttemptAt) : next.lastAttemptAt,
  };
}

function applyOrderEvent(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'ChargeRequested': {
      const { data } = event;
      return {
        ...state,
        exists: true,
        orderId: data.orderId,
        status: 'pending',
        amount: data.amount,
        currency: data.currency,
        customerId: data.customerId,
        description: data.description,
        requestFingerprint: data.requestFingerprint,
        idempotencyKeys: data.idempotencyKey ? { ...state.idempotencyKeys, [data.idempotencyKey]: data.requestFingerprint } : state.idempotencyKeys,
        providerKey: data.providerKey,
        requestNumber: data.requestNumber,
        attempts: 0,
        consecutiveUnknown: 0,
        lastError: undefined,
      };
    }
    case 'ChargeAttemptStarted':
      return { ...state, status: 'processing', attempts: event.data.attempt };
    case 'ChargeSucceeded':
      return {
        ...state,
        status: 'paid',
        paymentIntentId: event.data.paymentIntentId,
        providerChargeId: event.data.providerChargeId,
        recovered: event.data.recovered,
        consecutiveUnknown: 0,
      };
    case 'ChargeFailed':
      return { ...state, status: 'failed', lastError: `${event.data.declineCode}: ${event.data.reason}`, paymentIntentId: event.data.paymentIntentId ?? state.paymentIntentId };
    case 'ChargeOutcomeUnknown':
      return { ...state, status: 'unknown', lastError: event.data.error, consecutiveUnknown: state.consecutiveUnknown + 1 };
    case 'ChargeNeedsReview':
      return { ...state, status: 'needs_review', lastError: event.data.reason };
    case 'ChargeReviewResolved':
      return { ...state, status: event.data.resolution === 'paid' ? 'paid' : 'failed', lastError: state.lastError };
    default:
      return state;
  }
}
