import type { Provider } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { SupportJobQueries } from '../../projections/support-jobs/support-jobs.queries';
import { READ_MODEL_DATA_SOURCE } from '../../src/database/data-source';

/** The support_jobs read model's queries, for the search and needs-review routes. */
export const SUPPORT_JOBS = Symbol('SUPPORT_JOBS');

export const supportJobsProvider: Provider = {
  provide: SUPPORT_JOBS,
  useFactory: (source: DataSource) => new SupportJobQueries(source),
  inject: [READ_MODEL_DATA_SOURCE],
};
