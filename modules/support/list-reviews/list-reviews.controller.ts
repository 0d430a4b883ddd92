/**
 * GET /v1/support/reviews?cursor=&limit= — the cases a stop rule handed to a human (charges and import
 * runs in needs_review), oldest first, 100 a page by default: the admin screen's work list, each with
 * Reconcile and Resolve. `total` is the count /metrics shows (idem_support_needs_review_cases, all
 * kinds); `next` fetches the page after.
 */
import { Controller, Get, Inject, Query } from '@nestjs/common';
import type { SupportJobQueries } from '../../../projections/support-jobs/support-jobs.queries';
import { Roles } from '../../../src/auth/roles';
import { jobPage } from '../page-jobs/job-page';
import { JobPageDocs } from '../page-jobs/job-page.docs';
import { JobPageQuery, jobPageRequest } from '../page-jobs/job-page.query';
import { SUPPORT_JOBS } from '../support-jobs.provider';

const DEFAULT_PAGE = 100;

@Controller('v1/support/reviews')
export class ListReviewsController {
  constructor(@Inject(SUPPORT_JOBS) private readonly jobs: SupportJobQueries) {}

  @Get()
  @Roles('support')
  @JobPageDocs('Cases in needs_review (charges and import runs), oldest first', DEFAULT_PAGE)
  async list(@Query() query: JobPageQuery) {
    const page = jobPageRequest(query, DEFAULT_PAGE);
    const [rows, byKind] = await Promise.all([
      this.jobs.needingReview({ after: page.after, limit: page.limit + 1 }),
      this.jobs.needingReviewByKind(),
    ]);
    return jobPage(
      rows,
      page,
      byKind.reduce((sum, { cases }) => sum + cases, 0),
    );
  }
}
