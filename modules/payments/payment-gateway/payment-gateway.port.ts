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
}

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
  | { kind: 'unknown'; error: string };

export interface PaymentGateway {
  /**
   * Creates and confirms the payment under the instruction's key. The same instruction sent again
   * within the provider's key window gets the first answer back (or, for a payment still pending
   * then, its current status): this is also how an unknown outcome is verified.
   */
  charge(instruction: ChargeInstruction): Promise<ChargeOutcome>;
  /** Everything the provider's search holds for the order (by `metadata.order_id`); it may lag. */
  findPayments(orderId: string): Promise<ProviderPayment[]>;
  /** One payment by intent id, strongly consistent; undefined if the provider does not know it. */
  retrievePayment(paymentIntentId: string): Promise<ProviderPayment | undefined>;
}

export const PAYMENT_GATEWAY = Symbol('PAYMENT_GATEWAY');
