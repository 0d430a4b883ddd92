/**
 * Recovery for one order: an order stuck in processing or unknown is verified with the provider and
 * its outcome recorded; one still pending (no worker took its job, or its job made no attempt) is
 * charged as a first attempt — the same worker path with the attempt lease shortened to the recovery
 * threshold, so an attempt that has been silent that long is treated as dead. Writes an audit line.
 */
import type { Pool } from 'pg';
import {
  chargeOrder,
  ChargeOutcomeStillUnknown,
  ChargeStillProcessing,
  PaymentMethodLookupFailed,
  type ChargeOrderDeps,
  type ChargeOrderResult,
  DEFAULT_ATTEMPT_LEASE_MS,
} from '../charge-order/charge-order.job';
import { loadOrder } from '../load-order';
import { WebhookDeliveries } from '../receive-webhook/webhook-deliveries';
import type { OrderStatus } from '../order.state';
import { writeRecoveryLine, type RecoveryLine } from './recovery-log';
import { chargeJobState } from './charge-job-state';

export interface ReconcileResult {
  orderId: string;
  oldStatus: OrderStatus | 'none';
  newStatus: OrderStatus | 'none';
  reason: string;
  /** Set when recovering this order failed: nothing was recorded, the order stays as it was. */
  error?: string;
}

/**
 * What recovery runs with: the worker's dependencies, but the outside payments are always read from
 * `pool` (the same check as the worker's before a first attempt).
 */
export type RecoveryDeps = Omit<ChargeOrderDeps, 'outsidePayments'> & { pool: Pool };

export async function reconcileOrder(
  deps: RecoveryDeps,
  orderId: string,
  options: { staleAfterMs: number; trigger: RecoveryLine['trigger'] },
): Promise<ReconcileResult> {
  const before = await loadOrder(deps.store, orderId);
  const oldStatus = before.state.exists ? before.state.status : 'none';
  let reason: string;
  try {
    // A pending order gets its first attempt here: the same check of outside payments as the worker's.
    const outsidePayments = new WebhookDeliveries(deps.pool);
    const result = await chargeOrder(
      { ...deps, outsidePayments, attemptLeaseMs: options.staleAfterMs },
      orderId,
      `recovery:${options.trigger}`,
    );
    reason = reasonFor(result, oldStatus);
    // Charged here: say why no attempt had been made, as the queue shows it (no worker, a job retrying…).
    if (result === 'settled' && oldStatus === 'pending') reason = `charged as a first attempt: ${await chargeJobState(deps.pool, orderId)}`;
  } catch (error) {
    if (error instanceof ChargeStillProcessing) reason = `still processing: ${error.message}`;
    else if (error instanceof ChargeOutcomeStillUnknown) reason = `still unknown: ${error.message}`;
    else if (error instanceof PaymentMethodLookupFailed) reason = `nothing sent, the saved card look-up got no answer: ${error.message}`;
    else throw error;
  }
  const after = await loadOrder(deps.store, orderId);
  const newStatus = after.state.exists ? after.state.status : 'none';
  reason = withOutcome(reason, oldStatus, newStatus, after.state.exists ? after.state.lastError : undefined);
  if (before.state.exists) {
    await writeRecoveryLine(deps.pool, {
      orderId,
      providerKey: before.state.providerKey,
      oldStatus,
      newStatus,
      reason,
      trigger: options.trigger,
      ...(deps.requestedBy
        ? {
            requestedBy: `${deps.requestedBy.actor.role}:${deps.requestedBy.actor.tokenId}`,
            requestId: String(deps.requestedBy.requestId ?? deps.requestedBy.causationId),
          }
        : {}),
    });
  }
  return { orderId, oldStatus, newStatus, reason };
}

/**
 * Recovery of one order someone asked for now (support's reconcile, `idem recover --order`; DESIGN §7.4:
 * one path for both). An attempt silent past its lease is verified at once, not after the sweep's
 * threshold. One still inside its lease is left to its worker, as a second worker leaves it (DESIGN
 * §7.2): asking beside a charge in flight would claim a new attempt under the same key, send the create
 * again while the first still runs, and take the conflicting revision from the worker, whose outcome
 * would then be dropped. The result says so, and nothing is sent.
 */
export const reconcileOrderNow = (deps: RecoveryDeps, orderId: string, trigger: 'support' | 'cli') =>
  reconcileOrder(deps, orderId, { staleAfterMs: DEFAULT_ATTEMPT_LEASE_MS, trigger });

/**
 * The reason, with what became of the order when recovery sent it to review: "verified with the
 * provider" alone read as if all was well beside a new status of needs_review (the stop rule struck,
 * or the provider's answer contradicted the order). The review's reason is the order's last error.
 */
export function withOutcome(
  reason: string,
  oldStatus: OrderStatus | 'none',
  newStatus: OrderStatus | 'none',
  lastError: string | undefined,
): string {
  if (newStatus !== 'needs_review' || oldStatus === 'needs_review') return reason;
  return `${reason}; it now needs review: ${lastError ?? 'see its events'}`;
}

const reasonFor = (result: ChargeOrderResult, oldStatus: OrderStatus | 'none'): string => {
  switch (result) {
    case 'nothing_to_do':
      return `nothing to recover (${oldStatus})`;
    case 'left_to_other_worker':
      return 'an attempt is still in flight';
    case 'contended':
      return 'the order kept changing under recovery (other writers won every round); nothing recorded, the next sweep looks again';
    case 'settled':
      return oldStatus === 'pending' ? 'charged as a first attempt' : 'verified with the provider';
  }
};
