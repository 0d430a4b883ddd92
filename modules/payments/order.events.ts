/**
 * The payment life of one order, stream `order-<orderId>` (DESIGN.md §4). Type strings are permanent:
 * a breaking change is a new type (`…V2`) plus an upcaster, never a rename.
 */
export const ORDER_CATEGORY = 'order';

export const orderStream = (orderId: string) => `${ORDER_CATEGORY}-${orderId}`;

export interface ChargeRequested {
  type: 'ChargeRequested';
  data: {
    orderId: string;
    amount: number; // minor units
    currency: string; // ISO-4217, upper case
    customerId: string;
    description?: string;
    /** Hash of the charge-defining fields (and the Idempotency-Key when given): a duplicate must match it. */
    requestFingerprint: string;
    /** The Idempotency-Key header of the request that created the charge, if any. */
    idempotencyKey?: string;
    /** The key sent to the provider: derived from the order, persisted here, never regenerated. */
    providerKey: string;
    /** 1 for the first request; n+1 for a new request after `ChargeFailed`. */
    requestNumber: number;
  };
}

export interface ChargeAttemptStarted {
  type: 'ChargeAttemptStarted';
  data: {
    orderId: string;
    attempt: number;
    workerId: string;
    providerKey: string;
    /**
     * The customer's card the key charges, chosen before its first attempt: every later call under the
     * key sends this one (the provider refuses a key reused with other parameters). Absent in events
     * recorded before it was.
     */
    paymentMethodId?: string;
  };
}

export interface ChargeSucceeded {
  type: 'ChargeSucceeded';
  data: {
    orderId: string;
    paymentIntentId: string;
    providerChargeId?: string;
    amount: number;
    currency: string;
    /** True when the outcome was found by verification after an unknown outcome, webhook or crash. */
    recovered: boolean;
  };
}

export interface ChargeFailed {
  type: 'ChargeFailed';
  /** Terminal: money did not move. */
  data: { orderId: string; attempt: number; declineCode: string; reason: string; paymentIntentId?: string };
}

export interface ChargeOutcomeUnknown {
  type: 'ChargeOutcomeUnknown';
  /** A timeout, reset or 5xx: must be verified with the provider before any retry. */
  data: {
    orderId: string;
    attempt: number;
    error: string;
    /**
     * Set when the provider did answer, and its answer was "processing": the payment is in flight (a
     * bank debit takes days), so the outcome is not known yet but nothing was lost. Such an answer is
     * checked again later under the same key and never counts towards the stop rule for unknown
     * outcomes. Absent in events recorded before it existed, which fold as unknown outcomes.
     */
    providerStatus?: 'processing';
    /** With `providerStatus`: the payment intent that is processing (absent in events recorded before it was kept). */
    paymentIntentId?: string;
    /**
     * Set when no try of the attempt's call ever connected to the provider (connection refused, its
     * name not resolved: its process was gone), or each try was answered 429 by its rate limiter, which
     * answers before anything runs: the provider ran nothing, so this attempt moved no money. An earlier attempt's outcome stays as open as it was. Such calls never count towards the
     * stop rule for unknown outcomes (a provider down for minutes would send every order in flight to
     * review), only towards their own (MAX_CONSECUTIVE_NOT_SENT). Absent in events recorded before it existed.
     */
    notSent?: true;
  };
}

/** The provider told us the payment is in flight: an answer, not a lost one. */
export const isProcessingAtProvider = (event: ChargeOutcomeUnknown): boolean => event.data.providerStatus === 'processing';

/** The provider ran none of the attempt's call's tries (none reached it, or each was rate limited). */
export const isNotSent = (event: ChargeOutcomeUnknown): boolean => event.data.notSent === true;

export interface ChargeNeedsReview {
  type: 'ChargeNeedsReview';
  data: {
    orderId: string;
    reason: string;
    /**
     * The provider's payment that sent the order to review, when one did (a payment Idem did not ask
     * for, a second one): named here, and not only in the reason, so that the check before a person
     * resolves the case retrieves it. Absent in reviews no payment caused and in events from before.
     */
    paymentIntentId?: string;
    /**
     * True when the review records the provider's refusal of the attempt just before it (a request
     * refused at validation, for Idem's API key, or for a key reused with other parameters): that
     * request ran nothing and is over at the provider, so resolving the case need not wait for it.
     * Absent in other reviews and in events recorded before it was.
     */
    providerAnswered?: true;
  };
}

export interface ChargeReviewResolved {
  type: 'ChargeReviewResolved';
  data: {
    orderId: string;
    actor: string;
    note: string;
    resolution: 'paid' | 'failed';
    /**
     * Resolved as paid: the succeeded payment the provider showed for the order when support resolved
     * it (events from before this check existed carry none).
     */
    payment?: { paymentIntentId: string; providerChargeId?: string; amount: number; currency: string };
    /**
     * Resolved as paid with a payment of another amount than ordered, which support accepted
     * explicitly: the amount the order asked for, beside `payment.amount` (what was taken).
     */
    orderedAmount?: number;
  };
}

export type OrderEvent =
  ChargeRequested | ChargeAttemptStarted | ChargeSucceeded | ChargeFailed | ChargeOutcomeUnknown | ChargeNeedsReview | ChargeReviewResolved;

export type OrderEventType = OrderEvent['type'];
