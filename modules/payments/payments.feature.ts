/**
 * Everything payments adds to Idem (see src/features/feature.ts): the charge, order and webhook
 * routes; the orders and payment_ledger read models; the reactor that queues a charge job per
 * ChargeRequested, in a projection lane of their own; the charge and recovery tasks and the recovery schedule; the
 * payments tables (payments.core.ts). `idem recover` and `idem retention` come through payments.cli.ts.
 */
import type { IdemConfig } from '../../src/config/config';
import type { Feature } from '../../src/features/feature';
import { CHARGE_ORDER_TASK } from './charge-order/charge-order.payload';
import { chargeOrderTask } from './charge-order/charge-order.task';
import { configuredGateway } from './payment-gateway/configured-gateway';
import type { PaymentGateway } from './payment-gateway/payment-gateway.port';
import { paymentsCore } from './payments.core';
import { PaymentsModule } from './payments.module';
import { WebhookDeliveries } from './receive-webhook/webhook-deliveries';
import { RECOVER_STUCK_CHARGES_TASK, RECOVERY_SCHEDULE, recoverStuckChargesTask } from './recover-stuck-charges/recover-stuck-charges.task';
import { stuckOrdersIn } from './recover-stuck-charges/stuck-orders';

/**
 * The projection lane of payments' read models and reactor, away from contacts and the audit chain
 * (see Feature.projectionLane); support's, which follow the same payments, ride it too.
 */
export const PAYMENTS_LANE = 'payments';

export interface PaymentsPorts {
  /** The provider the api and the worker talk to (default: the configured Stripe API, or the sandbox). */
  gateway?: (config: IdemConfig) => PaymentGateway;
}

export function paymentsFeature({ gateway = (config) => configuredGateway(config.payments) }: PaymentsPorts = {}): Feature {
  return {
    ...paymentsCore,
    module: PaymentsModule.withGateway(gateway),
    // A charge's job is queued by chargeOrderReactor: it must not wait for a bulk import's read models.
    projectionLane: PAYMENTS_LANE,
    tasks: ({ config, store, pool, workerId, readModels }) => {
      const deps = { store, gateway: gateway(config), workerId, pool, outsidePayments: new WebhookDeliveries(pool) };
      return {
        [CHARGE_ORDER_TASK]: chargeOrderTask(deps),
        [RECOVER_STUCK_CHARGES_TASK]: recoverStuckChargesTask(deps, stuckOrdersIn(readModels), config),
      };
    },
    schedules: [RECOVERY_SCHEDULE],
    // `idem recover` asks the provider itself: started elsewhere, it cannot know this process's
    // sandbox (on a free port near IDEM_SANDBOX_PORT) and would check the charges against another
    // instance's sandbox, or none. A real provider's address is the CLI's own configuration.
    cliEnvironment: (config): Record<string, string> =>
      config.sandbox.enabled && config.payments.stripeApiBase ? { STRIPE_API_BASE: config.payments.stripeApiBase } : {},
  };
}
