/**
 * The worker's handler of a `charge-order` job (charge-order.payload.ts: what the reactor queued). It
 * reads the order's stream itself; the payload only points at it.
 */
import type { Task } from 'graphile-worker';
import { ChargeOrderContended, ChargeOutcomeStillUnknown, runChargeOrderJob, type ChargeOrderDeps } from './charge-order.job';
import type { ChargeOrderPayload } from './charge-order.payload';

export function chargeOrderTask(deps: ChargeOrderDeps): Task {
  return async (payload, helpers) => {
    const { orderId } = payload as ChargeOrderPayload;
    try {
      const result = await runChargeOrderJob(deps, orderId, `job:${helpers.job.id}`);
      helpers.logger.debug(`order ${orderId}: ${result}`);
    } catch (error) {
      // An unknown outcome is recorded before the task fails; the queue's retry then verifies first.
      // A run that lost every round to other writers recorded nothing; the retry reads the order again.
      if (error instanceof ChargeOutcomeStillUnknown || error instanceof ChargeOrderContended) helpers.logger.warn(error.message);
      throw error;
    }
  };
}
