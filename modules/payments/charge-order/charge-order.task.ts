/**
 * The worker's handler of a `charge-order` job (charge-order.payload.ts: what the reactor queued). It
 * reads the order's stream itself; the payload only points at it.
 */
import type { Task } from 'graphile-worker';
import {
  ChargeOrderContended,
  ChargeOutcomeStillUnknown,
  PaymentMethodLookupFailed,
  runChargeOrderJob,
  type ChargeOrderDeps,
} from './charge-order.job';
import type { ChargeOrderPayload } from './charge-order.payload';

export function chargeOrderTask(deps: ChargeOrderDeps): Task {
  return async (payload, helpers) => {
    const { orderId } = payload as ChargeOrderPayload;
    try {
      const result = await runChargeOrderJob(deps, orderId, `job:${helpers.job.id}`);
      helpers.logger.debug(`order ${orderId}: ${result}`);
    } catch (error) {
      // An unknown outcome is recorded before the task fails; the queue's retry then verifies first.
      // A card look-up that got no answer sent nothing: the retry simply looks again. A run that lost
      // every round to other writers recorded nothing; the retry reads the order again.
      const expected = [ChargeOutcomeStillUnknown, PaymentMethodLookupFailed, ChargeOrderContended];
      if (expected.some((kind) => error instanceof kind)) helpers.logger.warn((error as Error).message);
      throw error;
    }
  };
}
