/** Public surface of the payments module. */
export { PaymentsModule } from './payments.module';
export * from './order.events';
export { evolveOrder, initialOrderState, isSettled, type OrderState, type OrderStatus } from './order.state';
export { toOrderView, type OrderView } from './order.view';
export { foldOrder, loadOrder } from './get-order/load-order';
