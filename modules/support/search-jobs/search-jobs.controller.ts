/**
 * GET /v1/support/search?q= — "was I charged twice?": support pastes whatever id the customer has
 * (order, customer, charge or intent, request id) and gets each job it names with its status.
 */
import { Controller, Get, Inject, Query } from '@nestjs/common';
import type { SupportJobQueries } from '../../../projections/support-jobs/support-jobs.queries';
import { Roles } from '../../../src/auth/roles';
import { SUPPORT_JOBS } from '../support-jobs.provider';
import { SearchJobsQuery } from './search-jobs.query';
import { toSupportJobView } from './support-job.view';

@Controller('v1/support/search')
export class SearchJobsController {
  constructor(@Inject(SUPPORT_JOBS) private readonly jobs: SupportJobQueries) {}

  @Get()
  @Roles('support')
  async search(@Query() { q }: SearchJobsQuery) {
    const jobs = await this.jobs.search(q, await this.jobs.ordersNamingPayment(q));
    return { results: jobs.map(toSupportJobView) };
  }
}
