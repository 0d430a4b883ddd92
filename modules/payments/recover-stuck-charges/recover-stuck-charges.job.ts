/**
 * The scheduled recovery sweep (DESIGN §7.4): orders stuck in pending, processing or unknown whose last
 * change is older than the threshold — but only within a narrow window behind it, so one sweep never walks
 * the whole history — are verified with the provider one by one and their outcome recorded. Orders
 * that fell behind the window still stuck are handed to a human (escalate-to-review.ts), so nothing
 * falls out of every net.
 */
import { Logger } from '@nestjs/common';
import { counted } from '../../../src/text/counted';
import type { RecoveryDeps } from './reconcile-order';
import type { OrderStatus } from '../order.state';
import { escalateToReview } from './escalate-to-review';
import { reconcileOrder, type ReconcileResult } from './reconcile-order';
import type { RecoveryLine } from './recovery-log';

/** Where the stuck orders come from (the orders read model), oldest change first; injected by the composition root. */
export type FindStuckOrders = (
  statuses: StuckStatus[],
  updatedAfter: Date,
  updatedBefore: Date,
  limit: number,
) => Promise<Array<{ orderId: string; status: OrderStatus }>>;

export interface RecoverStuckChargesOptions {
  thresholdMs: number;
  windowMs: number;
  limit?: number;
  trigger: RecoveryLine['trigger'];
  now?: Date;
}

type StuckStatus = 'pending' | 'processing' | 'unknown';
/**
 * `pending` too: a charge job that used up the queue's attempts before recording any attempt (say, the
 * database was down) leaves its order pending with nobody to charge it (DESIGN §9.2). The worker path
 * takes a pending order as a first attempt under its persisted key, so a job still alive beside the
 * sweep cannot charge it twice.
 */
const STUCK: StuckStatus[] = ['pending', 'processing', 'unknown'];
const logger = new Logger('Recovery');

/** Every order the sweep looked at; those whose recovery failed carry `error` and stay stuck for the next sweep. */
export async function recoverStuckCharges(
  deps: RecoveryDeps,
  findStuckOrders: FindStuckOrders,
  options: RecoverStuckChargesOptions,
): Promise<ReconcileResult[]> {
  const now = options.now ?? new Date();
  const before = new Date(now.getTime() - options.thresholdMs);
  const windowStart = new Date(before.getTime() - options.windowMs);
  const limit = options.limit ?? 500;
  const results: ReconcileResult[] = [];
  for (const order of await findStuckOrders(STUCK, new Date(0), windowStart, limit)) {
    results.push(
      await isolated(order, () =>
        escalateToReview(deps, order.orderId, { windowStart, windowMs: options.windowMs, trigger: options.trigger, now }),
      ),
    );
  }
  for (const order of await findStuckOrders(STUCK, windowStart, before, limit)) {
    results.push(
      await isolated(order, () => reconcileOrder(deps, order.orderId, { staleAfterMs: options.thresholdMs, trigger: options.trigger })),
    );
  }
  const failed = results.filter((r) => r.error !== undefined);
  if (failed.length) logger.error(sweepFailuresLine(failed, results.length));
  return results;
}

/** "recovery sweep: 1 order of 3 could not be recovered, left stuck for the next sweep: o-1 (…)". */
export function sweepFailuresLine(failed: ReconcileResult[], lookedAt: number): string {
  const which = failed.map((r) => `${r.orderId} (${r.error})`).join('; ');
  return `recovery sweep: ${counted(failed.length, 'order')} of ${lookedAt} could not be recovered, left stuck for the next sweep: ${which}`;
}

/**
 * Orders go oldest first, so an order that fails every time (a poison event, a provider that refuses
 * its search) would otherwise stop every sweep at the same place and starve the rest. Its failure is
 * kept with its result and logged; it stays stuck, the next sweep tries again, and once it leaves the
 * window it goes to review.
 */
async function isolated(
  order: { orderId: string; status: OrderStatus },
  recover: () => Promise<ReconcileResult>,
): Promise<ReconcileResult> {
  try {
    return await recover();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      orderId: order.orderId,
      oldStatus: order.status,
      newStatus: order.status,
      reason: `recovery failed: ${message}`,
      error: message,
    };
  }
}

/** The scheduled sweep's closing log line: "recovery looked at 1 stuck order". */
export const sweepSummaryLine = (lookedAt: number): string => `recovery looked at ${counted(lookedAt, 'stuck order')}`;
