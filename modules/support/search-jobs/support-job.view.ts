import type { SupportJobRow } from '../../../projections/support-jobs/support-jobs.entity';

/** One job as support sees it (search results, the needs-review list); ids a job has not got are left out. */
export function toSupportJobView(row: SupportJobRow) {
  return {
    kind: row.kind,
    ...(row.orderId ? { orderId: row.orderId } : {}),
    ...(row.customerId ? { customerId: row.customerId } : {}),
    jobId: row.jobId,
    requestId: row.requestId,
    externalReference: row.externalReference,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    lastRetryAt: row.lastRetryAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    revision: row.revision,
  };
}

export type SupportJobView = ReturnType<typeof toSupportJobView>;
