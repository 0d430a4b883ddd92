/**
 * What every process takes of support (src/features/feature.ts, FeatureCore): the support_jobs,
 * order_payment_ids and order_request_keys read models and the review-alert reactor. Apart from
 * support.feature.ts, so that `idem` loads it without the routes and the admin screen.
 */
import { orderPaymentIdsReadModel } from '../../projections/order-payment-ids/order-payment-ids.projector';
import { orderRequestKeysReadModel } from '../../projections/order-request-keys/order-request-keys.projector';
import { supportJobsReadModel } from '../../projections/support-jobs/support-jobs.projector';
import type { FeatureCore } from '../../src/features/feature';
import { reviewAlertReactor } from './send-review-alert/review-alert.reactor';

export const supportCore: FeatureCore = {
  name: 'support',
  readModels: [supportJobsReadModel, orderPaymentIdsReadModel, orderRequestKeysReadModel],
  reactors: (config) => [reviewAlertReactor(config.alerts)],
};
