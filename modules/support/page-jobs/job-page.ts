import type { SupportJobRow } from '../../../projections/support-jobs/support-jobs.entity';
import { toSupportJobView } from '../search-jobs/support-job.view';
import { encodeJobCursor } from './job-cursor';
import type { JobPageRequest } from './job-page.query';

/**
 * One page of a support list: its jobs, `total` (every job the list holds now, on all pages) and
 * `next`, the cursor of the page after it, null on the last one. `rows` is the page read with one row
 * more than asked for, which says whether another page follows without counting.
 */
export function jobPage(rows: readonly SupportJobRow[], { limit }: JobPageRequest, total: number) {
  const shown = rows.slice(0, limit);
  return { results: shown.map(toSupportJobView), total, next: rows.length > limit ? encodeJobCursor(shown.at(-1)!) : null };
}
