/**
 * The Stripe-shaped sandbox provider: a local HTTP server speaking the PaymentIntents subset Idem's
 * payment adapter uses (through the official stripe SDK), with Stripe's idempotency semantics, signed
 * webhooks and a control API for fault injection. Contract and rules: ./README.md.
 */
export { createSandbox } from './create-sandbox';
export type { Sandbox, SandboxOptions } from './create-sandbox';
export type { SandboxSignalMap, FaultStruck } from './sandbox-signals';
export type { PaymentIntent, LastPaymentError, PaymentMethodObject } from './payment-intents/payment-intent';
export type { FaultKind, FaultSpec, Fault } from './faults/fault';
export type { HeldResponse } from './faults/held-responses';
export type { RequestLogEntry } from './request-log';
export type { StripeEvent } from './webhooks/stripe-event';
export type { WebhookEndpoint, DeliveryAttempt } from './webhooks/deliver-event';
export type { WebhookMode } from './webhooks/webhook-dispatcher';
export { IDEMPOTENCY_KEY_TTL_MS } from './idempotency/idempotency.store';
export { isSucceededCharge } from './payment-intents/payment-intent';
export { DEFAULT_SEARCH_LAG_MS } from './payment-intents/intents.store';
export { AUTHENTICATION_PAYMENT_METHODS } from './payment-intents/stripe-test-cards';
export { DELAYED_SEPA_DEBITS } from './payment-intents/test-payment-methods';
export type { OutsideCharge } from './payment-intents/outside-charge';
export { seededRandom } from './faults/seeded-random';
