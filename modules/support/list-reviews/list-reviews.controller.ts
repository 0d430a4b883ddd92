/**
 * GET /v1/support/reviews — the cases a stop rule handed to a human (charges and import runs in
 * needs_review), oldest first: the admin screen's work list, each with Reconcile and Resolve.
 */
import { Controller, Get, Inject } from '@nestjs/common';
import type { SupportJobQueries } from '../../../projections/support-jobs/support-jobs.queries';
import { Roles } from '../../../src/auth/roles';
import { toSupportJobView } from '../search-jobs/support-job.view';
import { SUPPORT_JOBS } from '../support-jobs.provider';

@Controller('v1/support/reviews')
export class ListReviewsController {
  constructor(@Inject(SUPPORT_JOBS) private readonly jobs: SupportJobQueries) {}

  @Get()
  @Roles('support')
  async list() {
    return { results: (await this.jobs.needingReview()).map(toSupportJobView) };
  }
}
