/**
 * `?cursor=&limit=` of the support lists (search, needs review): `cursor` is the `next` of the page
 * before (omitted: the first page), `limit` 1–200 jobs per page. Anything else is a 400 naming the field.
 */
import { IsOptional, IsString, Matches } from 'class-validator';
import { AppError } from '../../../src/errors/app-error';
import type { JobKey } from '../../../projections/support-jobs/support-jobs.queries';
import { decodeJobCursor } from './job-cursor';

export const MAX_JOBS_PER_PAGE = 200;

export class JobPageQuery {
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,600}$/, { message: 'cursor must be the next of an earlier answer' })
  cursor?: string;

  @IsOptional()
  @IsString()
  @Matches(/^(?:[1-9]\d?|1\d\d|200)$/, { message: `limit must be an integer from 1 to ${MAX_JOBS_PER_PAGE}` })
  limit?: string;
}

export interface JobPageRequest {
  after: JobKey | undefined;
  limit: number;
}

/** The validated query as the read model takes it; a cursor that decodes to no key is refused like a malformed one. */
export function jobPageRequest({ cursor, limit }: JobPageQuery, defaultLimit: number): JobPageRequest {
  const after = cursor === undefined ? undefined : decodeJobCursor(cursor);
  if (cursor !== undefined && !after) {
    throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', {
      errors: [{ field: 'cursor', message: 'cursor must be the next of an earlier answer' }],
    });
  }
  return { after, limit: limit === undefined ? defaultLimit : Number(limit) };
}
