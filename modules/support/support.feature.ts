/**
 * Everything support adds to Idem (see src/features/feature.ts): the support_jobs read model (one row
 * per charge job and import run, for finding a case), order_payment_ids (every payment id an order's
 * events name, so any of them finds the order), order_request_keys (every customer and request that
 * asked for an order, so an earlier request's customer finds it too) and the routes that read them — search, the
 * needs-review list, the overview (duplicates absorbed, projection lag); the reconcile and resolve
 * actions, which ask the provider through payments' gateway; the needs-review gauge on /metrics; the
 * optional alert webhook (IDEM_ALERT_WEBHOOK_URL: a reactor queues one job per needs-review event);
 * and /admin, the page that shows support its screen and auditors theirs (over the audit routes). Its
 * read models and reactor ride payments' projection lane.
 */
import type { Feature } from '../../src/features/feature';
import { PAYMENTS_LANE } from '../payments';
import { SEND_REVIEW_ALERT_TASK } from './send-review-alert/review-alert.payload';
import { sendReviewAlertTask } from './send-review-alert/send-review-alert.task';
import { supportCore } from './support.core';
import { SupportModule } from './support.module';

export function supportFeature(): Feature {
  return {
    ...supportCore,
    module: SupportModule,
    // Its read models follow the payments' events (a charge job is findable as soon as it is queued) and
    // only the start and end of import runs, never their records: nothing here waits for a bulk import.
    projectionLane: PAYMENTS_LANE,
    tasks: ({ config }) => ({ [SEND_REVIEW_ALERT_TASK]: sendReviewAlertTask({ alerts: config.alerts }) }),
    bannerLines: (apiUrl) => [`  admin screen   ${apiUrl}/admin   (log in with a support or auditor token)`],
  };
}
