/**
 * The worker's handler of a `charge-order` job (charge-order.payload.ts: what the reactor queued). It
 * reads the order's stream itself; the payload only points at it.
 */
import type { Task } from 'graphile-worker';
import { runChargeOrderJob, type ChargeOrderDeps } from './charge-order.job';
import type { ChargeOrderPayload } from './charge-order.payload';

export function chargeOrderTask(deps: ChargeOrderDeps): Task {
  return async (payload, helpers) => {
    const { orderId } = payload as ChargeOrderPayload;
    // An unknown outcome is recorded before the task fails; the queue's retry then verifies first. A card
    // look-up that got no answer sent nothing: the retry simply looks again. A run that lost every round
    // to other writers recorded nothing; the retry reads the order again. Those errors are marked
    // `expectedRetry`, and the job log says each in one warning line (src/jobs/job-log.ts).
    const result = await runChargeOrderJob(deps, orderId, `job:${helpers.job.id}`);
    helpers.logger.debug(`order ${orderId}: ${result}`);
  };
}
