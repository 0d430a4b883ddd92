/** contacts in `idem` (src/features/feature.ts, CliFeature): `idem sync`. */
import type { CliFeature } from '../../src/features/feature';
import { syncCommand } from './sync-runs/sync.command';

export const contactsCli: CliFeature = {
  commands: [syncCommand],
  core: async () => (await import('./contacts.core')).contactsCore,
};
