/**
 * The scheduled recovery sweep (DESIGN §7.4): orders stuck in processing or unknown whose last change
 * is older than the threshold — but only within a narrow window behind it, so one sweep never walks
 * the whole history — are verified with the provider one by one and their outcome recorded.
 */
import type { Pool } from 'pg';
import type { ChargeOrderDeps } from '../charge-order/charge-order.job';
import { reconcileOrder, type ReconcileResult } from './reconcile-order';
import type { RecoveryLine } from './recovery-log';

/** Where the stuck orders come from (the orders read model); injected by the composition root. */
export type FindStuckOrders = (statuses: Array<'processing' | 'unknown'>, updatedAfter: Date, updatedBefore: Date, limit: number) => Promise<Array<{ orderId: string }>>;

export interface RecoverStuckChargesOptions {
  thresholdMs: number;
  windowMs: number;
  limit?: number;
  trigger: RecoveryLine['trigger'];
  now?: Date;
}

export async function recoverStuckCharges(
  deps: ChargeOrderDeps & { pool: Pool },
  findStuckOrders: FindStuckOrders,
  options: RecoverStuckChargesOptions,
): Promise<ReconcileResult[]> {
  const now = options.now ?? new Date();
  const before = new Date(now.getTime() - options.thresholdMs);
  const after = new Date(before.getTime() - options.windowMs);
  const stuck = await findStuckOrders(['processing', 'unknown'], after, before, options.limit ?? 500);
  const results: ReconcileResult[] = [];
  for (const { orderId } of stuck) {
    results.push(await reconcileOrder(deps, orderId, { staleAfterMs: options.thresholdMs, trigger: options.trigger }));
  }
  return results;
}
