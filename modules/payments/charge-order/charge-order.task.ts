/**
 * The `charge-order` job: what the reactor puts on the queue (one per order, keyed by it) and the
 * handler the worker runs for it. The handler reads the order's stream itself; the payload only
 * points at it.
 */
import type { Task } from 'graphile-worker';
import { ChargeOutcomeStillUnknown, runChargeOrderJob, type ChargeOrderDeps } from './charge-order.job';

export const CHARGE_ORDER_TASK = 'charge-order';

/**
 * One key per order: a charge already waiting for the same order is replaced, not doubled. Prefixed
 * with the task because graphile-worker keys are global across tasks (a bare order id would let any
 * other order-keyed job silently replace the charge).
 */
export const chargeOrderJobKey = (orderId: string) => `${CHARGE_ORDER_TASK}:${orderId}`;

export interface ChargeOrderPayload {
  orderId: string;
  requestNumber: number;
  /** The ChargeRequested event that caused the job. */
  causationEventId: string;
}

export function chargeOrderTask(deps: ChargeOrderDeps): Task {
  return async (payload, helpers) => {
    const { orderId } = payload as ChargeOrderPayload;
    try {
      const result = await runChargeOrderJob(deps, orderId, `job:${helpers.job.id}`);
      helpers.logger.debug(`order ${orderId}: ${result}`);
    } catch (error) {
      // An unknown outcome is recorded before the task fails; the queue's retry then verifies first.
      if (error instanceof ChargeOutcomeStillUnknown) helpers.logger.warn(error.message);
      throw error;
    }
  };
}
