/** Public surface of the payments module. */
export { PaymentsModule } from './payments.module';
export * from './order.events';
export { evolveOrder, initialOrderState, isSettled, type OrderState, type OrderStatus } from './order.state';
export { toOrderView, type OrderView } from './order.view';
export { foldOrder, loadOrder } from './load-order';
export { orderCommands } from './order.commands';
export { PAYMENT_GATEWAY, type ChargeInstruction, type ChargeOutcome, type PaymentGateway, type ProviderPayment } from './payment-gateway/payment-gateway.port';
export { StripePaymentGateway } from './payment-gateway/stripe.payment-gateway';
export { chargeOrder, ChargeOutcomeStillUnknown, runChargeOrderJob, type ChargeOrderDeps } from './charge-order/charge-order.job';
export { reconcileOrder, type ReconcileResult } from './recover-stuck-charges/reconcile-order';
export { decideResolveReview, type ResolveReview } from './resolve-review/resolve-review.decision';
export { checkProviderForOrder, type ProviderCheck } from './resolve-review/provider-check';
export { recoverStuckCharges, type FindStuckOrders } from './recover-stuck-charges/recover-stuck-charges.job';
export { ORDER_READ_MODEL, type OrderReadModel } from './get-order/order-read-model.port';
export { archiveFinishedRows, type ArchiveResult } from './retention/archive-finished-rows';
export { longestRetryWindowMs } from './retention/retry-window';
export { WebhookDeliveries } from './receive-webhook/webhook-deliveries';
