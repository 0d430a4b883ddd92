/**
 * Everything support adds to Idem (see src/features/feature.ts): the reconcile and resolve routes,
 * and the support_jobs read model (one row per charge job and import run, for finding a case). Its
 * actions ask the provider through payments' gateway.
 */
import { supportJobsReadModel } from '../../projections/support-jobs/support-jobs.projector';
import type { Feature } from '../../src/features/feature';
import { SupportModule } from './support.module';

export function supportFeature(): Feature {
  return {
    name: 'support',
    module: SupportModule,
    readModels: [supportJobsReadModel],
    bannerLines: (apiUrl) => [`  admin screen   ${apiUrl}/admin   (log in with a support token)`],
  };
}
