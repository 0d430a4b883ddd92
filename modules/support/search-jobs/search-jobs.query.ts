import { IsString, Matches } from 'class-validator';

/** `?q=`: one id as support has it — order, customer, provider reference, request, job or import run. */
export class SearchJobsQuery {
  // The longest id searched is a request id (X-Request-Id: 1–128 visible ASCII characters).
  @IsString()
  @Matches(/^[\x21-\x7e]{1,128}$/, { message: 'q must be one id: 1–128 visible characters, no spaces' })
  q!: string;
}
