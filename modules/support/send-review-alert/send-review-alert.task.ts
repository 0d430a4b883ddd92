/**
 * Delivers one review alert: POSTs its JSON body to IDEM_ALERT_WEBHOOK_URL, signed when a secret is
 * set. A network error, a timeout or a non-2xx answer throws AlertNotDelivered, so graphile-worker
 * retries the job with its backoff and the job log says what failed in one warning line (src/jobs/job-log.ts).
 * The log names the webhook's host only: a webhook URL often carries its own secret in the path.
 */
import type { Task } from 'graphile-worker';
import type { IdemConfig } from '../../../src/config/config';
import { describeFetchFailure } from '../../../src/errors/fetch-failure';
import type { ReviewAlert } from './review-alert';
import { signatureHeaders } from './review-alert.signature';

export const ALERT_TIMEOUT_MS = 5_000;

/** The alert's receiver did not take it (unreachable, too slow, not 2xx): expected, and resolved by the queue's retry. */
export class AlertNotDelivered extends Error {
  readonly expectedRetry = true;
}

export interface AlertDelivery {
  alerts: IdemConfig['alerts'];
  timeoutMs?: number;
  now?: () => Date;
}

export function sendReviewAlertTask({ alerts, timeoutMs = ALERT_TIMEOUT_MS, now = () => new Date() }: AlertDelivery): Task {
  return async (payload) => {
    const alert = payload as ReviewAlert;
    const what = `review alert for ${alert.stream}@${alert.revision} (event ${alert.eventId})`;
    // Only a worker with the URL enqueues alerts; one without it (set differently, or removed since)
    // leaves the job to be retried rather than dropping the alert.
    if (!alerts.webhookUrl) throw new Error(`${what} not sent: IDEM_ALERT_WEBHOOK_URL is not set in this worker`);
    const host = new URL(alerts.webhookUrl).host;
    const body = JSON.stringify(alert);
    let response: Response;
    try {
      response = await fetch(alerts.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signatureHeaders(body, alerts.webhookSecret, now()) },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new AlertNotDelivered(`${what} not delivered to ${host}: ${describeFetchFailure(error)}`, { cause: error });
    }
    // The answer's body is not read; cancelling it frees the connection.
    await response.body?.cancel();
    if (!response.ok) throw new AlertNotDelivered(`${what} refused by ${host}: HTTP ${response.status}`);
  };
}
