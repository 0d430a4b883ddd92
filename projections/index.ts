/**
 * The catalogue the composition roots (worker, CLI, api) hand to the projection runner: every read
 * model and reactor, and the entities TypeORM must know for the query side.
 */
import { contactsReadModel } from './contacts/contacts.projector';
import { importEventsReadModel } from './import-events/import-events.projector';
import { ordersReadModel } from './orders/orders.projector';
import { paymentLedgerReadModel } from './payment-ledger/payment-ledger.projector';
import { chargeOrderReactor } from './reactors/charge-order.reactor';
import { supportJobsReadModel } from './support-jobs/support-jobs.projector';

export const READ_MODELS = [ordersReadModel, paymentLedgerReadModel, contactsReadModel, importEventsReadModel, supportJobsReadModel];
export const REACTORS = [chargeOrderReactor];
export const READ_MODEL_ENTITIES = READ_MODELS.map((model) => model.entity);

export { OrderQueries, type OrderView } from './orders/orders.queries';
export { ContactQueries, type ContactView } from './contacts/contacts.queries';
export { PaymentLedgerQueries } from './payment-ledger/payment-ledger.queries';
export { ImportEventQueries } from './import-events/import-events.queries';
export { SupportJobQueries } from './support-jobs/support-jobs.queries';
export { CHARGE_ORDER_TASK, chargeOrderJobKey, type ChargeOrderPayload } from './reactors/charge-order.reactor';
