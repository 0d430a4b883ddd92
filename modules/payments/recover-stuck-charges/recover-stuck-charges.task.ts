/**
 * The `recover-stuck-charges` job and its schedule: every IDEM_RECOVERY_INTERVAL one sweep (a pending
 * one is not doubled, however many workers schedule it), over the orders the orders read model finds
 * stuck.
 */
import { Logger } from '@nestjs/common';
import type { Task } from 'graphile-worker';
import type { JobSchedule } from '../../../src/features/feature';
import type { IdemConfig } from '../../../src/config/config';
import type { RecoveryDeps } from './reconcile-order';
import { recoverStuckCharges, sweepSummaryLine, type FindStuckOrders } from './recover-stuck-charges.job';

export const RECOVER_STUCK_CHARGES_TASK = 'recover-stuck-charges';

export const RECOVERY_SCHEDULE: JobSchedule = {
  task: RECOVER_STUCK_CHARGES_TASK,
  intervalMs: (config) => config.worker.recoveryIntervalMs,
};

const logger = new Logger('Worker');

type SweepDeps = RecoveryDeps;

export function recoverStuckChargesTask(deps: SweepDeps, findStuckOrders: FindStuckOrders, config: IdemConfig): Task {
  return async () => {
    const results = await recoverStuckCharges(deps, findStuckOrders, {
      thresholdMs: config.worker.recoveryThresholdMs,
      windowMs: config.worker.recoveryWindowMs,
      trigger: 'schedule',
    });
    if (results.length) logger.log(sweepSummaryLine(results.length));
  };
}
