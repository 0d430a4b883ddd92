/**
 * What an order's payment stream means, folded from its events. Pure: no I/O, no clock.
 */
import { isNotSent, isProcessingAtProvider, type OrderEvent } from './order.events';
import { applyPaymentEvent, type OrderPayment, type OrderStatus } from './order-payment.view';

export type { OrderStatus };

/** What GET shows (`OrderPayment`, evolved by the one rule the read model follows too) and what commands decide on. */
export interface OrderState extends OrderPayment<string> {
  exists: boolean;
  orderId: string;
  description?: string;
  requestFingerprint: string;
  /** Idempotency-Key headers seen on requests that created a ChargeRequested, with their fingerprints. */
  idempotencyKeys: Record<string, string>;
  providerKey: string;
  requestNumber: number;
  consecutiveUnknown: number;
  /** Attempts in a row whose call never reached the provider (ChargeOutcomeUnknown `notSent`); their own stop rule. */
  consecutiveNotSent: number;
  /**
   * The last outcome is the provider's "processing": the attempt is over (no lease to wait for) and the
   * payment is checked again later under the same key. False once another event follows.
   */
  processingAtProvider: boolean;
  /**
   * The payment intent the provider said is processing, when that answer named it (answers recorded
   * before it did name none): the next check asks for that intent alone instead of replaying the create.
   */
  processingPaymentIntentId?: string;
  /**
   * Every payment intent the order's history names (outcomes, payments that sent it to review, the
   * payment a resolution recorded), across its requests: a webhook about one of them is no news.
   */
  namedPaymentIntentIds: string[];
  recovered?: boolean;
  /**
   * The correlation id (the X-Request-Id) of the request behind the current ChargeRequested: the
   * worker's events for that charge carry it, so one id finds the request, its events and its job.
   */
  correlationId?: string;
  /**
   * The card the current request's provider key charges, as its first attempt recorded it: every
   * later call under the key must send it again (the provider refuses a key reused with other
   * parameters). Undefined before an attempt, and for attempts recorded before cards were.
   */
  paymentMethodId?: string;
  /**
   * The resolution, with the request id (X-Request-Id) that decided it, while it is the stream's latest
   * event: a retry of that very request (its answer lost to a 503 or a dropped connection) is answered
   * with what it did.
   */
  lastResolution?: { requestId?: string; actor: string; resolution: 'paid' | 'failed'; note: string };
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
  consecutiveNotSent: 0,
  processingAtProvider: false,
  processingPaymentIntentId: undefined,
  namedPaymentIntentIds: [],
  paymentIntentId: undefined,
  providerChargeId: undefined,
  recovered: undefined,
  lastError: undefined,
  lastAttemptAt: undefined,
  updatedAt: undefined,
  correlationId: undefined,
  paymentMethodId: undefined,
  lastResolution: undefined,
});

/** Terminal for the storefront: the answer will not change without a new request or a human. */
export const isSettled = (status: OrderStatus) => status === 'paid' || status === 'failed' || status === 'needs_review';

/** Pure: returns a new state (or `state` itself for an event that means nothing to an order). */
export function evolveOrder(
  state: OrderState,
  event: OrderEvent & { metadata?: { recordedAt: string; correlationId?: string } },
): OrderState {
  const next = { ...state };
  if (!applyPaymentEvent(next, event, event.metadata?.recordedAt)) return state;
  applyCommandFacts(next, event);
  if (event.type === 'ChargeRequested') next.correlationId = event.metadata?.correlationId;
  next.lastResolution =
    event.type === 'ChargeReviewResolved'
      ? { requestId: event.metadata?.correlationId, actor: event.data.actor, resolution: event.data.resolution, note: event.data.note }
      : undefined;
  return next;
}

/** What commands decide on beyond what GET shows (order-payment.view.ts wrote that part already). */
function applyCommandFacts(next: OrderState, event: OrderEvent): void {
  next.processingAtProvider = false;
  next.processingPaymentIntentId = undefined;
  const named = namedIntentOf(event);
  if (named !== undefined && !next.namedPaymentIntentIds.includes(named))
    next.namedPaymentIntentIds = [...next.namedPaymentIntentIds, named];
  switch (event.type) {
    case 'ChargeRequested': {
      const { data } = event;
      next.exists = true;
      next.orderId = data.orderId;
      next.description = data.description;
      next.requestFingerprint = data.requestFingerprint;
      if (data.idempotencyKey) next.idempotencyKeys = { ...next.idempotencyKeys, [data.idempotencyKey]: data.requestFingerprint };
      next.providerKey = data.providerKey;
      next.requestNumber = data.requestNumber;
      next.consecutiveUnknown = 0;
      next.consecutiveNotSent = 0;
      next.recovered = undefined;
      next.paymentMethodId = undefined;
      return;
    }
    case 'ChargeAttemptStarted':
      next.paymentMethodId ??= event.data.paymentMethodId;
      return;
    case 'ChargeSucceeded':
      next.recovered = event.data.recovered;
      next.consecutiveUnknown = 0;
      next.consecutiveNotSent = 0;
      return;
    case 'ChargeOutcomeUnknown':
      // A call that never reached the provider is no outcome: the run of unknown ones neither grows nor ends.
      if (isNotSent(event)) {
        next.consecutiveNotSent += 1;
        return;
      }
      next.consecutiveNotSent = 0;
      // "Processing" is the provider's answer, not a lost one: it ends a run of unknown outcomes
      // instead of adding to it, so a debit that takes days never reaches the stop rule.
      if (isProcessingAtProvider(event)) {
        next.processingAtProvider = true;
        next.processingPaymentIntentId = event.data.paymentIntentId;
        next.consecutiveUnknown = 0;
      } else {
        next.consecutiveUnknown += 1;
      }
      return;
    default:
      return;
  }
}

function namedIntentOf(event: OrderEvent): string | undefined {
  if (event.type === 'ChargeReviewResolved') return event.data.payment?.paymentIntentId;
  if (event.type === 'ChargeRequested' || event.type === 'ChargeAttemptStarted') return undefined;
  return event.data.paymentIntentId;
}
