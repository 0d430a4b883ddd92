/**
 * Everything support adds to Idem (see src/features/feature.ts): the support_jobs read model (one row
 * per charge job and import run, for finding a case) and the routes that read it — search, the
 * needs-review list, the overview (duplicates absorbed, projection lag); the reconcile and resolve
 * actions, which ask the provider through payments' gateway; the needs-review gauge on /metrics; and
 * /admin, the page that shows support its screen and auditors theirs (over the audit routes).
 */
import { supportJobsReadModel } from '../../projections/support-jobs/support-jobs.projector';
import type { Feature } from '../../src/features/feature';
import { SupportModule } from './support.module';

export function supportFeature(): Feature {
  return {
    name: 'support',
    module: SupportModule,
    readModels: [supportJobsReadModel],
    bannerLines: (apiUrl) => [`  admin screen   ${apiUrl}/admin   (log in with a support or auditor token)`],
  };
}
