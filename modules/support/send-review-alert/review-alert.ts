/**
 * What the stop rules' webhook sends (DESIGN.md §7.5): one JSON body per needs-review event, built
 * from the event alone so that any worker, at any later retry, sends the same body. Its signature is
 * review-alert.signature.ts: the reactor, which every process loads (`idem` too), needs only the body,
 * not the Stripe SDK that signs it.
 */
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
