import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { JOB_PAGE_SCHEMA } from '../support-answers.schema';
import { MAX_JOBS_PER_PAGE } from './job-page.query';

/** The OpenAPI description of a paged support list (the query parameters come from JobPageQuery's rules). */
export const JobPageDocs = (what: string, defaultLimit: number) =>
  applyDecorators(
    ApiResponse({ status: 200, description: 'One page of the list.', schema: JOB_PAGE_SCHEMA }),
    ApiOperation({
      description:
        `${what}, \`limit\` jobs a page (1–${MAX_JOBS_PER_PAGE}, default ${defaultLimit}). ` +
        'The answer is `{results, total, next}`: `total` counts every job the list holds now (all pages); ' +
        '`next` is the `cursor` of the page after this one, null on the last page. Pages are read as the read model ' +
        'stands at each request: a job that changes while you page moves in the order and may be listed twice or not at all.',
    }),
  );
