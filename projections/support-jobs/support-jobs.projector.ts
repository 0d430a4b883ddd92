/**
 * `support_jobs`: the charge job of each order (one job key per order, reused by a new request after
 * a failure, as in the job queue) and each import run, with the status support talks about. An import
 * run a stop rule ended waits for a human exactly as a charge in review does: `needs_review`, the
 * reason as its last error, until someone resumes it.
 */
import { IMPORT_CATEGORY, type ImportEvent } from '../../modules/contacts/contact.events';
import { ORDER_CATEGORY, type OrderEvent } from '../../modules/payments/order.events';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { eventTime } from '../../src/subscriptions/read-models/event-time';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { paymentIdsNamedBy } from '../order-payment-ids/payment-ids-named';
import { orderIdOf } from '../orders/orders.projector';
import { chargeOrderJobKey } from '../../modules/payments/charge-order/charge-order.payload';
import { SupportJobRow, type SupportJobKind } from './support-jobs.entity';

const CHARGE_TYPES: OrderEvent['type'][] = [
  'ChargeRequested',
  'ChargeAttemptStarted',
  'ChargeSucceeded',
  'ChargeFailed',
  'ChargeOutcomeUnknown',
  'ChargeNeedsReview',
  'ChargeReviewResolved',
];
const IMPORT_TYPES: ImportEvent['type'][] = [
  'ImportRunStarted',
  'ImportRunCompleted',
  'ImportRunFailed',
  'ImportRunNeedsReview',
  'ImportRunResumed',
];

export const importRunJobId = (runId: string) => `import-run:${runId}`;

function jobIdOf(event: RecordedEvent): string | undefined {
  if ((CHARGE_TYPES as string[]).includes(event.type)) return chargeOrderJobKey(orderIdOf(event));
  if ((IMPORT_TYPES as string[]).includes(event.type)) return importRunJobId((event.data as { runId: string }).runId);
  return undefined;
}

/**
 * The X-Request-Id of the call that started the job, which support searches by. A pull run's events
 * correlate by the run id, so the request id is read from its own field (set on every command made
 * over HTTP); a job started without a request (CLI, worker) falls back to its correlation id.
 */
export function requestIdOf(event: RecordedEvent): string {
  const { requestId, correlationId } = event.metadata;
  return typeof requestId === 'string' ? requestId : correlationId;
}

/** A job as first seen: every field set, in the entity's order (one object shape for all rows). */
function newJob(
  event: RecordedEvent,
  jobId: string,
  kind: SupportJobKind,
  orderId: string | null,
  customerId: string | null,
  externalReference: string | null,
): SupportJobRow {
  return {
    jobId,
    kind,
    orderId,
    customerId,
    requestId: requestIdOf(event),
    externalReference,
    status: 'pending',
    attempts: 0,
    lastError: null,
    lastRetryAt: null,
    updatedAt: eventTime(event),
    revision: event.revision,
  };
}

export function evolveSupportJob(row: SupportJobRow | undefined, event: RecordedEvent): SupportJobRow | undefined {
  if (row && event.revision <= row.revision) return row;
  const at = eventTime(event);
  const e = event as unknown as OrderEvent | ImportEvent;
  if (e.type === 'ChargeRequested') {
    const orderId = orderIdOf(event);
    return newJob(event, chargeOrderJobKey(orderId), 'charge-order', orderId, e.data.customerId, null);
  }
  if (e.type === 'ImportRunStarted') {
    return newJob(event, importRunJobId(e.data.runId), 'import-run', null, null, e.data.source);
  }
  if (!row) return undefined;
  const next: SupportJobRow = { ...row, updatedAt: at, revision: event.revision };
  switch (e.type) {
    case 'ChargeAttemptStarted':
      return { ...next, attempts: row.attempts + 1, lastRetryAt: row.attempts >= 1 ? at : row.lastRetryAt };
    case 'ChargeSucceeded':
      return { ...next, status: 'done', lastError: null, externalReference: e.data.providerChargeId ?? e.data.paymentIntentId };
    case 'ChargeFailed':
      return {
        ...next,
        status: 'failed',
        lastError: `${e.data.declineCode}: ${e.data.reason}`,
        externalReference: e.data.paymentIntentId ?? row.externalReference,
      };
    case 'ChargeOutcomeUnknown':
      return { ...next, status: 'pending', lastError: e.data.error };
    case 'ChargeNeedsReview':
      // A review a payment caused shows that payment when the job has no reference yet. A 3-D Secure
      // case names its intent only in the reason (the event has no field for it, and must not: a
      // field would make a later success webhook for that intent "already named" and drop its report).
      return {
        ...next,
        status: 'needs_review',
        lastError: e.data.reason,
        externalReference: row.externalReference ?? paymentIdsNamedBy(e)[0] ?? null,
      };
    case 'ChargeReviewResolved': {
      const payment = e.data.payment;
      const externalReference = payment ? (payment.providerChargeId ?? payment.paymentIntentId) : row.externalReference;
      // As in the order's own view (order-payment.view.ts): resolved as paid, nothing stands in error any
      // more; resolved as failed, the reason it went to review is why it failed.
      if (e.data.resolution === 'paid') return { ...next, status: 'done', lastError: null, externalReference };
      return { ...next, status: 'failed', externalReference };
    }
    case 'ImportRunCompleted':
      return { ...next, status: 'done', lastError: null };
    case 'ImportRunFailed':
      return { ...next, status: 'failed', lastError: e.data.error };
    case 'ImportRunNeedsReview':
      return { ...next, status: 'needs_review', lastError: e.data.reason };
    // Resuming is the run's retry: it goes on from its last recorded page, and the stop reason stays
    // the last error until the run completes (as a charge's error stays until it succeeds).
    case 'ImportRunResumed':
      return { ...next, status: 'pending', lastRetryAt: at };
    default:
      return next;
  }
}

export const supportJobsReadModel: ReadModel<SupportJobRow> = {
  name: 'support_jobs',
  entity: SupportJobRow,
  filter: { streamCategories: [ORDER_CATEGORY, IMPORT_CATEGORY], eventTypes: [...CHARGE_TYPES, ...IMPORT_TYPES] },
  keyOf: (event) => {
    const jobId = jobIdOf(event);
    return jobId ? { jobId } : undefined;
  },
  evolve: evolveSupportJob,
};
