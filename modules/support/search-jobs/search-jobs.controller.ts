/**
 * GET /v1/support/search?q=&cursor=&limit= — "was I charged twice?": support pastes whatever id the
 * customer has (order, customer, charge or intent, request id) and gets each job it names with its
 * status, newest first, 50 a page by default: `total` says how many there are in all, `next` fetches
 * the page after (a customer with hundreds of orders is read to the end, never cut off silently).
 */
import { Controller, Get, Inject, Query } from '@nestjs/common';
import type { SupportJobQueries } from '../../../projections/support-jobs/support-jobs.queries';
import { Roles } from '../../../src/auth/roles';
import { jobPage } from '../page-jobs/job-page';
import { JobPageDocs } from '../page-jobs/job-page.docs';
import { jobPageRequest } from '../page-jobs/job-page.query';
import { SUPPORT_JOBS } from '../support-jobs.provider';
import { SearchJobsQuery } from './search-jobs.query';

const DEFAULT_PAGE = 50;

@Controller('v1/support/search')
export class SearchJobsController {
  constructor(@Inject(SUPPORT_JOBS) private readonly jobs: SupportJobQueries) {}

  @Get()
  @Roles('support')
  @JobPageDocs('Jobs named by `q` (order, customer, provider reference, request, job or import run id), newest first', DEFAULT_PAGE)
  async search(@Query() query: SearchJobsQuery) {
    const page = jobPageRequest(query, DEFAULT_PAGE);
    // The orders q names beyond the jobs' own columns: a payment id, or a customer or request of an earlier request.
    const named = await Promise.all([this.jobs.ordersNamingPayment(query.q), this.jobs.ordersRequestedBy(query.q)]);
    const alsoOrders = [...new Set(named.flat())];
    const [rows, total] = await Promise.all([
      this.jobs.search(query.q, alsoOrders, { after: page.after, limit: page.limit + 1 }),
      this.jobs.countMatching(query.q, alsoOrders),
    ]);
    return jobPage(rows, page, total);
  }
}
