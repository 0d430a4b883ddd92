/**
 * What Idem needs from a payment provider. The answer to "charge" is a fact about money — and
 * "unknown" is a normal one: a timeout, reset or 5xx says nothing about whether money moved.
 */
export interface ChargeInstruction {
  orderId: string;
  amount: number;
  currency: string;
  customerId: string;
  description?: string;
  /** Persisted in ChargeRequested; the same for every attempt of one request. */
  idempotencyKey: string;
  /**
   * The customer's card to charge, chosen before the key's first attempt and recorded in its
   * ChargeAttemptStarted: every call under the key sends this one, since the provider refuses a key
   * reused with other parameters. The job always sets it: for a key whose attempts were recorded
   * before it was, it looks the card up again (charge-order.job.ts `paymentMethodFor`).
   */
  paymentMethodId?: string;
}

/** The card to charge off-session, or why there is none (a person must look: money cannot move). */
export type SavedPaymentMethod =
  | { kind: 'found'; paymentMethodId: string }
  /** No such customer at the provider, or it has no saved card. */
  | { kind: 'rejected'; reason: string }
  /** The provider could not be asked (timeout, 5xx): nothing happened, ask again later. */
  | { kind: 'unknown'; error: string };

export interface ProviderPayment {
  paymentIntentId: string;
  chargeId?: string;
  status: 'succeeded' | 'failed' | 'pending';
  amount: number;
  /** Upper case ISO-4217, like ours. */
  currency: string;
  orderId?: string;
  /** The provider's customer whose money it is (Idem sends the order's customerId). */
  customerId?: string;
  providerKey?: string;
  declineCode?: string;
}

export type ChargeOutcome =
  /** `replayed`: the provider answered from its idempotency store (the charge happened in an earlier call). */
  | { kind: 'succeeded'; payment: ProviderPayment; replayed: boolean }
  | { kind: 'declined'; declineCode: string; reason: string; paymentIntentId?: string }
  /**
   * Money did not move and retrying cannot help: the customer must act (authenticate with 3-D
   * Secure, on session). A person takes it from here.
   */
  | { kind: 'action_required'; reason: string; paymentIntentId: string }
  /** The provider accepted the payment but has not settled it (`processing`): verify later by intent id. */
  | { kind: 'pending'; paymentIntentId: string; reason: string }
  /** The provider refused the request itself (e.g. unknown customer): money did not move, a human must look. */
  | { kind: 'rejected'; reason: string }
  /**
   * The provider is still executing an earlier request under this key: it says nothing of this call,
   * which it did not run. Not an outcome (no unknown outcome to count towards the stop rule): the
   * earlier request's answer is asked for again later, under the same key.
   */
  | { kind: 'in_progress'; reason: string }
  /**
   * No answer. `notSent`: no try of the call ever connected (refused, or the provider's name did not
   * resolve) or each was answered 429 (rate limited), so the provider ran nothing and nothing moved;
   * otherwise money may have moved.
   */
  | { kind: 'unknown'; error: string; notSent?: true };

export interface PaymentGateway {
  /**
   * Creates and confirms the payment under the instruction's key. The same instruction sent again
   * within the provider's key window gets the first answer back (or, for a payment still pending
   * then, its current status): this is also how an unknown outcome is verified.
   */
  charge(instruction: ChargeInstruction): Promise<ChargeOutcome>;
  /** The customer's saved card to charge (its default, else a card attached to it). Reads only. */
  savedPaymentMethod(customerId: string): Promise<SavedPaymentMethod>;
  /** Everything the provider's search holds for the order (by `metadata.order_id`); it may lag. */
  findPayments(orderId: string): Promise<ProviderPayment[]>;
  /** One payment by intent id, strongly consistent; undefined if the provider does not know it. */
  retrievePayment(paymentIntentId: string): Promise<ProviderPayment | undefined>;
  /**
   * Every payment of the customer created at or after `since`, strongly consistent (unlike search):
   * what the provider holds right now, declined ones included. Sends nothing that could charge.
   */
  listPayments(customerId: string, since: Date): Promise<ProviderPayment[]>;
}

export const PAYMENT_GATEWAY = Symbol('PAYMENT_GATEWAY');
