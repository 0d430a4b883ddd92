/**
 * ChargeNeedsReview (order-… streams) and ImportRunNeedsReview (import-… streams) → one
 * `send-review-alert` job each, enqueued in the transaction that moves this reactor's checkpoint:
 * the alert comes from the recorded event, whichever process raised it, and cannot be lost between
 * the event and the job.
 *
 * Without IDEM_ALERT_WEBHOOK_URL the reactor still runs but enqueues nothing, rather than not being
 * registered. Its checkpoint keeps moving, so a URL configured later alerts the cases raised from then
 * on instead of replaying every past (long resolved) review as a fresh page; and every process lists
 * the same projections whatever its environment, so /health/ready's lag check never waits on a
 * reactor that only a process with the URL would run.
 */
import type { IdemConfig } from '../../../src/config/config';
import { enqueueManyInTransaction, type JobToEnqueue } from '../../../src/jobs/enqueue-in-transaction';
import type { Projection } from '../../../src/subscriptions/projection';
import { ORDER_CATEGORY } from '../../payments/order.events';
import { IMPORT_CATEGORY } from '../../contacts/contact.events';
import { reviewAlertOf } from './review-alert';
import { SEND_REVIEW_ALERT_TASK, reviewAlertJobKey } from './review-alert.payload';

const reactorThat = (sends: boolean): Projection => ({
  name: 'review_alert_reactor',
  kind: 'reactor',
  filter: { streamCategories: [ORDER_CATEGORY, IMPORT_CATEGORY], eventTypes: ['ChargeNeedsReview', 'ImportRunNeedsReview'] },
  async handle(events, { client }) {
    if (!sends) return;
    const jobs: JobToEnqueue[] = events.flatMap((event) => {
      const alert = reviewAlertOf(event);
      return alert ? [{ task: SEND_REVIEW_ALERT_TASK, payload: alert, options: { jobKey: reviewAlertJobKey(event.id) } }] : [];
    });
    await enqueueManyInTransaction(client, jobs);
  },
});

const SENDING = reactorThat(true);
const IDLE = reactorThat(false);

/** The same two objects every time, so the projection catalogue of the tests can compare them. */
export const reviewAlertReactor = (alerts: IdemConfig['alerts']): Projection => (alerts.webhookUrl ? SENDING : IDLE);
