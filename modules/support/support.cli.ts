/** support in `idem` (src/features/feature.ts, CliFeature): no command of its own; its read models are rebuilt, verified and shown by `idem projections`. */
import type { CliFeature } from '../../src/features/feature';

export const supportCli: CliFeature = {
  commands: [],
  core: async () => (await import('./support.core')).supportCore,
};
