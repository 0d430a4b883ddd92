/**
 * Every read model and reactor of Idem, for tests and benchmarks that run projections without the
 * whole service. Listed here rather than collected from idemFeatures(): child processes load this
 * file (runner-crash starts 21 of them) and the features bring Nest, Stripe and every route with them.
 * projection-catalogue.unit.spec.ts proves the lists equal what the features declare.
 */
import { chargeOrderReactor } from '../../modules/payments/charge-order/charge-order.reactor';
import { reviewAlertReactor } from '../../modules/support/send-review-alert/review-alert.reactor';
import { auditChainProjector } from '../../projections/audit-chain/audit-chain.projector';
import { contactsReadModel } from '../../projections/contacts/contacts.projector';
import { importEventsReadModel } from '../../projections/import-events/import-events.projector';
import { orderPaymentIdsReadModel } from '../../projections/order-payment-ids/order-payment-ids.projector';
import { orderRequestKeysReadModel } from '../../projections/order-request-keys/order-request-keys.projector';
import { ordersReadModel } from '../../projections/orders/orders.projector';
import { paymentLedgerReadModel } from '../../projections/payment-ledger/payment-ledger.projector';
import { supportJobsReadModel } from '../../projections/support-jobs/support-jobs.projector';
import { syncRunsReadModel } from '../../projections/sync-runs/sync-runs.projector';

export const READ_MODELS = [
  ordersReadModel,
  paymentLedgerReadModel,
  contactsReadModel,
  importEventsReadModel,
  syncRunsReadModel,
  supportJobsReadModel,
  orderPaymentIdsReadModel,
  orderRequestKeysReadModel,
];
/** As configured with nothing set: the review alert reactor without a webhook URL enqueues nothing. */
const reviewAlerts = reviewAlertReactor({ webhookUrl: undefined, webhookSecret: undefined });
export const REACTORS = [chargeOrderReactor, reviewAlerts, auditChainProjector()];
/** The lanes the features give them (Feature.projectionLane, projectionLanes); the others ride the default lane. */
export const PROJECTION_LANES: ReadonlyMap<string, string> = new Map([
  ...[
    ordersReadModel,
    paymentLedgerReadModel,
    supportJobsReadModel,
    orderPaymentIdsReadModel,
    orderRequestKeysReadModel,
    chargeOrderReactor,
    reviewAlerts,
  ].map(({ name }): [string, string] => [name, 'payments']),
  [contactsReadModel.name, 'contacts'],
]);
export const READ_MODEL_ENTITIES = READ_MODELS.map((model) => model.entity);
