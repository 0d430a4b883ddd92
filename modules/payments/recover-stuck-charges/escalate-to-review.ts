/**
 * The last net under the recovery sweep. A charge job retries for about four days
 * (retention/retry-window.ts), the sweep looks back only one window (24 h by default), and the
 * provider may forget an idempotency key after 24 h (payments-idempotency.md §1.1): an order still
 * pending, processing or unknown when its last change falls behind the window would be in nobody's hands
 * and no longer safe to retry blindly. It goes to a human instead: ChargeNeedsReview, the alert and
 * an audit line. No provider call here — that is what the sweeps inside the window did, in vain.
 */
import type { Pool } from 'pg';
import { WrongExpectedVersion } from '../../../src/event-store/errors';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { reportNeedsReview } from '../needs-review.alert';
import { orderCommands } from '../order.commands';
import type { ChargeNeedsReview } from '../order.events';
import { isSettled } from '../order.state';
import type { ReconcileResult } from './reconcile-order';
import { writeRecoveryLine, type RecoveryLine } from './recovery-log';

export interface EscalateOptions {
  /** The window's far edge: an order whose last change is older has left it. */
  windowStart: Date;
  windowMs: number;
  trigger: RecoveryLine['trigger'];
  now: Date;
}

export async function escalateToReview(
  deps: { store: EventStore; pool: Pool; workerId: string },
  orderId: string,
  options: EscalateOptions,
): Promise<ReconcileResult> {
  const loaded = await orderCommands.load(deps.store, orderId);
  const { state } = loaded;
  const oldStatus = state.exists ? state.status : 'none';
  const lastChange = state.updatedAt ? Date.parse(state.updatedAt) : 0;
  // The read model may lag behind the stream: decide on the stream alone.
  if (!state.exists || isSettled(state.status) || lastChange >= options.windowStart.getTime()) {
    return { orderId, oldStatus, newStatus: oldStatus, reason: 'moved on since the read model saw it' };
  }
  const hours = Math.round(options.windowMs / 3_600_000);
  const review: ChargeNeedsReview = {
    type: 'ChargeNeedsReview',
    // Only facts of the stream and the setting: two sweeps escalating one state write the same event.
    data: {
      orderId,
      reason: `still ${state.status} with no outcome recorded since ${state.updatedAt ?? 'the request'}: it left the ${hours} h recovery window unresolved (last error: ${state.lastError ?? 'none'})`,
    },
  };
  const metadata = {
    correlationId: orderId,
    causationId: `recovery:${options.trigger}`,
    actor: { role: 'worker', tokenId: deps.workerId },
  };
  const step = `review/left-window/r${state.requestNumber}/${state.attempts}/${state.consecutiveUnknown}`;
  try {
    // Decided on the loaded state: appended at exactly its revision; a conflict is left to the next sweep.
    const now = () => options.now;
    await orderCommands.handle(deps.store, orderId, () => [{ event: review, key: step }], { metadata, now, from: loaded });
  } catch (error) {
    if (!(error instanceof WrongExpectedVersion)) throw error;
    return { orderId, oldStatus, newStatus: oldStatus, reason: 'changed while being escalated; the next sweep looks again' };
  }
  reportNeedsReview(orderId, review.data.reason);
  await writeRecoveryLine(deps.pool, {
    orderId,
    providerKey: state.providerKey,
    oldStatus,
    newStatus: 'needs_review',
    reason: review.data.reason,
    trigger: options.trigger,
  });
  return { orderId, oldStatus, newStatus: 'needs_review', reason: review.data.reason };
}
