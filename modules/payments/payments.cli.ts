/** payments in `idem` (src/features/feature.ts, CliFeature): `idem recover` and `idem retention`. */
import type { CliFeature } from '../../src/features/feature';
import { recoverCommand } from './recover-stuck-charges/recover.command';
import { retentionCommand } from './retention/retention.command';

export const paymentsCli: CliFeature = {
  commands: [recoverCommand, retentionCommand],
  core: async () => (await import('./payments.core')).paymentsCore,
};
