/** Public surface of the payments module; `paymentsFeature` is what the composition roots plug in. */
export { PAYMENTS_LANE, paymentsFeature, type PaymentsPorts } from './payments.feature';
export * from './order.events';
export { evolveOrder, initialOrderState, isSettled, type OrderState, type OrderStatus } from './order.state';
export { toOrderView, type OrderView } from './order.view';
export { foldOrder, loadOrder } from './load-order';
export { orderCommands } from './order.commands';
export {
  PAYMENT_GATEWAY,
  type ChargeInstruction,
  type ChargeOutcome,
  type PaymentGateway,
  type ProviderPayment,
} from './payment-gateway/payment-gateway.port';
export { StripePaymentGateway } from './payment-gateway/stripe.payment-gateway';
export { CHARGE_ORDER_TASK, chargeOrderJobKey, type ChargeOrderPayload } from './charge-order/charge-order.payload';
export { chargeOrder, ChargeOutcomeStillUnknown, DEFAULT_ATTEMPT_LEASE_MS, type ChargeOrderDeps } from './charge-order/charge-order.job';
export { reconcileOrder, reconcileOrderNow, type ReconcileResult, type RecoveryDeps } from './recover-stuck-charges/reconcile-order';
export { decideResolveReview, type ResolveReview } from './resolve-review/resolve-review.decision';
export { checkProviderForOrder, type ProviderCheck } from './resolve-review/provider-check';
export { WebhookDeliveries } from './receive-webhook/webhook-deliveries';
export type { OutsidePayments } from './charge-order/outside-payments.decision';
export { ORDER_VIEW_SCHEMA } from './order.view.schema';
