/**
 * What Idem needs from a payment provider. The answer to "charge" is one of three facts — and
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
  providerKey?: string;
  declineCode?: string;
}

export type ChargeOutcome =
  | { kind: 'succeeded'; payment: ProviderPayment }
  | { kind: 'declined'; declineCode: string; reason: string; paymentIntentId?: string }
  /** The provider refused the request itself (e.g. unknown customer): money did not move, a human must look. */
  | { kind: 'rejected'; reason: string }
  | { kind: 'unknown'; error: string };

export interface PaymentGateway {
  charge(instruction: ChargeInstruction): Promise<ChargeOutcome>;
  /** Everything the provider holds for the order (by `metadata.order_id`), to verify an unknown outcome. */
  findPayments(orderId: string): Promise<ProviderPayment[]>;
}

export const PAYMENT_GATEWAY = Symbol('PAYMENT_GATEWAY');
