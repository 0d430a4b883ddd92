/**
 * The stop rule for a run that reads nothing: a pull run or a file import whose first
 * NOTHING_READABLE_WINDOW records (or all of them, when it has fewer) were every one `rejected`. Such a
 * run is no import with a few bad records: the file is not in the format its name says (CSV named
 * .ndjson, NDJSON named .csv), its rows use another delimiter than the header, or the source answers
 * something else than contact records. It used to end `completed`, `idem sync import` exiting 0, with
 * only the closing line's "rejected N" to tell. Now the page (or file slice) that decides it is recorded
 * as usual — its rejections counted and in the import trail — and the run stops `needs_review` naming
 * the first rejection; `idem sync` then exits non-zero.
 *
 * The rule looks at the first records only and is decided once, by the page that reaches the window (or
 * the last page of a smaller run): a run with any record that is not rejected among them goes on and
 * completes with its rejections counted, however many follow; and a pull run resumed after this stop
 * (`idem sync resume`: its pages go on after the one recorded) is not stopped by it again. A file so
 * stopped is fixed and imported again (another file's bytes are another run).
 */
import type { ImportRunNeedsReview } from '../contact.events';
import { boundedReason } from '../import-run.audit';
import type { FirstRejection, ImportRunState } from '../import-run.state';
import type { RecordResult } from '../import-contacts/import-records';

/**
 * Records a run reads before it is judged: enough that a few bad records at the start of a good export
 * (a test row, a header repeated) do not stop it, few enough to stop a wrongly read file in its first
 * page or slice (1,000 and 500 records), and within a CRM's smaller pages (often 100) after one or two.
 */
export const NOTHING_READABLE_WINDOW = 100;

/**
 * The run's stop, or undefined. `run` is the run before the page; `results` the page's records not
 * recorded yet; `lastPage`: no page follows (the end of the source or file).
 */
export function decideNothingReadable(run: ImportRunState, results: RecordResult[], lastPage: boolean): ImportRunNeedsReview | undefined {
  if (run.kind === 'push' || run.processed >= NOTHING_READABLE_WINDOW) return undefined;
  const after = run.processed + results.length;
  if (after === 0 || (after < NOTHING_READABLE_WINDOW && !lastPage)) return undefined;
  if ((run.counts.rejected ?? 0) !== run.processed || results.some((r) => r.outcome !== 'rejected')) return undefined;
  const first = run.firstRejection ?? rejectionOf(results[0]);
  const what =
    after === 1 ? 'its only record was' : lastPage ? `all ${after} of its records were` : `every one of its first ${after} records was`;
  const reason = boundedReason(`nothing could be read: ${what} rejected (the first, ${describe(first)}); ${nextStep(run)}`);
  return { type: 'ImportRunNeedsReview', data: { runId: run.runId, reason } };
}

const rejectionOf = (result: RecordResult): FirstRejection => ({
  seq: result.seq,
  sourceId: result.sentSourceId ?? result.sourceId ?? '',
  ...(result.reason !== undefined ? { reason: result.reason } : {}),
});

/** `record 1 (sourceId "a1"): version must be …`; a run's seq counts from 0, people from 1. */
const describe = (first: FirstRejection) =>
  `record ${first.seq + 1}${first.sourceId ? ` (sourceId ${JSON.stringify(first.sourceId)})` : ''}: ${first.reason ?? 'no reason recorded'}`;

const nextStep = (run: ImportRunState) =>
  run.kind === 'file'
    ? `is the file in the format its name says (.csv for CSV, any other name for NDJSON), with the header and delimiter expected? Fix it and import it again`
    : `look at what the source answers; \`idem sync resume ${run.runId}\` goes on with the pages after this one`;
