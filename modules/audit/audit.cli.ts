/** audit in `idem` (src/features/feature.ts, CliFeature): `idem audit`. */
import type { CliFeature } from '../../src/features/feature';
import { auditCommand } from './audit.command';

export const auditCli: CliFeature = {
  commands: [auditCommand],
  core: async () => (await import('./audit.core')).auditCore(),
};
