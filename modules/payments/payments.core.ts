/**
 * What every process takes of payments (src/features/feature.ts, FeatureCore): the orders and
 * payment_ledger read models, the reactor that queues a charge job per ChargeRequested, the payments
 * tables. Apart from payments.feature.ts, so that `idem` loads it without the routes and the tasks.
 */
import { ordersReadModel } from '../../projections/orders/orders.projector';
import { paymentLedgerReadModel } from '../../projections/payment-ledger/payment-ledger.projector';
import type { FeatureCore } from '../../src/features/feature';
import { chargeOrderReactor } from './charge-order/charge-order.reactor';
import { migratePayments } from './payments.migrations';

export const paymentsCore: FeatureCore = {
  name: 'payments',
  readModels: [ordersReadModel, paymentLedgerReadModel],
  reactors: [chargeOrderReactor],
  migrate: migratePayments,
};
