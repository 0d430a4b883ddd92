/**
 * What the stop rules' webhook sends (DESIGN.md §7.5): one JSON body per needs-review event, built
 * from the event alone so that any worker, at any later retry, sends the same body.
 */
import Stripe from 'stripe';
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import type { SupportJobKind } from '../../../projections/support-jobs/support-jobs.entity';
import type { ChargeNeedsReview } from '../../payments/order.events';
import type { ImportRunNeedsReview } from '../../contacts/contact.events';

export interface ReviewAlert {
  alert: 'needs_review';
  /** The same kinds as `idem_support_needs_review_cases{kind}`. */
  kind: SupportJobKind;
  orderId?: string;
  runId?: string;
  reason: string;
  eventId: string;
  stream: string;
  revision: number;
  recordedAt: string;
}

export const SIGNATURE_HEADER = 'Idem-Signature';

/** The alert a needs-review event raises; undefined for any other event. */
export function reviewAlertOf(event: RecordedEvent): ReviewAlert | undefined {
  const where = { eventId: event.id, stream: event.stream, revision: event.revision, recordedAt: event.metadata.recordedAt };
  if (event.type === 'ChargeNeedsReview') {
    const { orderId, reason } = event.data as ChargeNeedsReview['data'];
    return { alert: 'needs_review', kind: 'charge-order', orderId, reason, ...where };
  }
  if (event.type === 'ImportRunNeedsReview') {
    const { runId, reason } = event.data as ImportRunNeedsReview['data'];
    return { alert: 'needs_review', kind: 'import-run', runId, reason, ...where };
  }
  return undefined;
}

/**
 * `Idem-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, Stripe's webhook scheme, so
 * a receiver can check it with any Stripe webhook library (`stripe.webhooks.signature.verifyHeader`).
 * Signed by the Stripe SDK's own signer — the one the receive-webhook route's check agrees with —
 * rather than a second hand-written HMAC. The timestamp is the moment of sending: each retry is signed
 * afresh, so a receiver's replay tolerance does not reject a delivery retried hours later.
 */
export function signatureHeaders(body: string, secret: string | undefined, now: Date): Record<string, string> {
  if (!secret) return {};
  const timestamp = Math.floor(now.getTime() / 1000);
  return { [SIGNATURE_HEADER]: Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }) };
}
