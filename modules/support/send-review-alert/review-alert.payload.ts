/** The job that delivers one review alert; its payload is the alert's body. */
export const SEND_REVIEW_ALERT_TASK = 'send-review-alert';

/**
 * One job per event. A batch is redelivered only when its checkpoint did not commit, and then neither
 * did its jobs; the key still keeps an alert that is waiting (or retrying) from being queued again.
 */
export const reviewAlertJobKey = (eventId: string) => `${SEND_REVIEW_ALERT_TASK}:${eventId}`;
