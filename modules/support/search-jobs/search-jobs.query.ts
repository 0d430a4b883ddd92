import { IsString, Matches } from 'class-validator';
import { JobPageQuery } from '../page-jobs/job-page.query';

/** `?q=`: one id as support has it — order, customer, provider reference, request, job or import run; then the page. */
export class SearchJobsQuery extends JobPageQuery {
  // The longest id searched is a request id (X-Request-Id: 1–128 visible ASCII characters).
  @IsString()
  @Matches(/^[\x21-\x7e]{1,128}$/, { message: 'q must be one id: 1–128 visible characters, no spaces' })
  q!: string;
}
