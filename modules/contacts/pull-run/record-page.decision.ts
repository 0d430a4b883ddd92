/**
 * What a pull run records for a page it fetched and imported: every record's outcome, then the page's
 * cursor, so a page counts as done only with all its outcomes (a run killed before the cursor is
 * recorded fetches the page again and its records come back `duplicate`/`unchanged`: never a second
 * revision). The events go in appends that each fit the store's limit (appendRunEvents); a run killed
 * between them records only the page's records that have no outcome yet (pageStart). The last page also completes the run. Stop rules → ImportRunNeedsReview, and the page
 * that hit one is not recorded (nothing partial counts as done):
 * - a page the source fails to serve MAX_FETCH_ATTEMPTS times in a row (with backoff), or at all: a
 *   run whose source is not configured here (any more), or is configured here as another source than
 *   the one the run started with (decideSourceMoved);
 * - a source that keeps contradicting itself: MAX_CONFLICT_PAGES_IN_A_ROW pages in a row with
 *   records whose version it already gave with other content;
 * - a source whose next cursor leads back to a page this driver already began from (the page's own
 *   cursor, or an earlier one): followed, the run would go round for ever, appending every lap's
 *   records to its stream;
 * - a source whose next cursor the run cannot record (decideUnrecordableCursor): checked before the
 *   page's records are imported, so nothing of that page is written;
 * - an error that driving the run again cannot fix (a background driver's: run-drivers.ts);
 * - a run whose first records are every one rejected (nothing-readable.decision.ts): the one stop after
 *   which the page that hit it is recorded, its rejections counted.
 */
import { unstorableText } from '../../../src/errors/storable-text';
import type { ImportEvent } from '../contact.events';
import { isLastPage, type ContactPage, type ContactSource } from '../contact-source/contact-source.port';
import { boundedReason, countOutcomes, recordProcessed } from '../import-run.audit';
import type { ImportRunState } from '../import-run.state';
import type { RecordResult } from '../import-contacts/import-records';
import { decideNothingReadable } from './nothing-readable.decision';

export const MAX_FETCH_ATTEMPTS = 5;
export const MAX_CONFLICT_PAGES_IN_A_ROW = 3;
/**
 * The longest next cursor a run records. Cursors are opaque tokens of a few dozen to a few hundred
 * characters; one of megabytes would outgrow the store's append limit with the page's events.
 */
export const MAX_CURSOR_CHARS = 4096;

export interface ImportedPage {
  cursor: string | null;
  nextCursor: string | null;
  /** The page's records not recorded yet: all of them, unless a driver died between the page's appends. */
  results: RecordResult[];
  /** `nextCursor` is a cursor a page of this run already began from (this one's included), as far as its driver saw. */
  nextCursorSeen?: boolean;
}

/** The seq of the page's first record, and how many of its records are recorded already (import-run.state.ts). */
export const pageStart = (run: ImportRunState) => ({ firstSeq: run.processed - run.recordedInPage, recorded: run.recordedInPage });

export function decidePage(run: ImportRunState, page: ImportedPage): ImportEvent[] {
  if (page.nextCursor !== null && page.nextCursorSeen) {
    const reason = boundedReason(
      `the source gave cursor ${page.nextCursor} as the next after cursor ${page.cursor ?? '(start)'}, and a page of this run already began there: following it would go round for ever`,
    );
    return [{ type: 'ImportRunNeedsReview', data: { runId: run.runId, reason } }];
  }
  const conflicts = page.results.filter((r) => r.outcome === 'conflict').length;
  if (conflicts > 0 && run.conflictPagesInARow + 1 >= MAX_CONFLICT_PAGES_IN_A_ROW) {
    const reason = `the source contradicted itself on ${MAX_CONFLICT_PAGES_IN_A_ROW} pages in a row (the last at cursor ${page.cursor ?? '(start)'}: ${conflicts} records)`;
    return [{ type: 'ImportRunNeedsReview', data: { runId: run.runId, reason } }];
  }
  const events: ImportEvent[] = page.results.map((result) => recordProcessed(run.runId, run.source, result));
  const { firstSeq, recorded } = pageStart(run);
  const records = recorded + page.results.length;
  events.push({
    type: 'ImportPageFetched',
    data: { runId: run.runId, cursor: page.cursor, nextCursor: page.nextCursor, records, firstSeq, conflicts },
  });
  // The page is recorded either way: its rejections count and stay in the trail.
  const nothingReadable = decideNothingReadable(run, page.results, page.nextCursor === null);
  if (nothingReadable) events.push(nothingReadable);
  else if (page.nextCursor === null)
    events.push({ type: 'ImportRunCompleted', data: { runId: run.runId, counts: countOutcomes(page.results, run.counts) } });
  return events;
}

/**
 * A next cursor the run cannot record stops it before the page's records are imported: the cursor goes
 * into the page's ImportPageFetched, and the store refuses a NUL or a lone surrogate (no PostgreSQL
 * document holds them) or an append over its limit. Refused there, after the records were written, the
 * driver failed with the store's error and left the run `running` for a worker to take over later,
 * against whatever source that worker is configured with. The fault is the source's: a human looks.
 */
export function decideUnrecordableCursor(run: ImportRunState, nextCursor: string | null): ImportEvent | undefined {
  if (nextCursor === null) return undefined;
  const why =
    unstorableText(nextCursor) ??
    (nextCursor.length > MAX_CURSOR_CHARS
      ? `is ${nextCursor.length} characters long, over the ${MAX_CURSOR_CHARS} a run records`
      : undefined);
  if (why === undefined) return undefined;
  // JSON quotes it as the store would: a NUL or a lone surrogate shown as its escape, never as itself.
  const quoted = JSON.stringify(nextCursor.length > 200 ? `${nextCursor.slice(0, 200)}…` : nextCursor);
  const reason = boundedReason(
    `the source answered the page at cursor ${cursorText(run)} with a next cursor the run cannot record: it ${why} (${quoted}); nothing of that page was recorded: fix the source, then resume the run`,
  );
  return { type: 'ImportRunNeedsReview', data: { runId: run.runId, reason } };
}

/**
 * A run with nothing left to read completes without recording one more page: its last page was recorded
 * and the completion cut off (`readToEnd`), or a file ended right after a recorded slice (or held no
 * record). `pages` counts pages that were read, each once: an empty slice at a file's end counted one
 * more, and a run whose completion was cut off read its source or file again from the start.
 */
export function decideNothingLeftToRead(run: ImportRunState): ImportEvent {
  return { type: 'ImportRunCompleted', data: { runId: run.runId, counts: { ...run.counts } } };
}

export function decideFetchGaveUp(run: ImportRunState, attempts: number, lastError: string): ImportEvent {
  return {
    type: 'ImportRunNeedsReview',
    data: { runId: run.runId, reason: `page at cursor ${run.cursor ?? '(start)'} failed ${attempts} times in a row: ${lastError}` },
  };
}

/**
 * Where the next page starts, as the run reads the source's answer: null when no page follows
 * (isLastPage: null or ""), else the cursor as the source spelled it. The driver reads every page
 * through this, so a "" completes the run with its page instead of asking for the first page again.
 */
export const nextCursorOf = (page: ContactPage): string | null => (isLastPage(page.nextCursor) ? null : page.nextCursor);

/**
 * A run started against one source is driven only against that one. The name (`crm`) is what the run
 * and its contacts' streams carry, but which CRM it points at is each process's configuration
 * (IDEM_CRM_URL): a worker configured with another CRM took a run over and completed it with that CRM's
 * records. So a run that recorded its source's identity when it started (ImportRunStarted.sourceIdentity)
 * is stopped as `needs_review` by a driver told to drive it, before anything is asked of the source
 * configured here, when that source's identity is another (or it gives none). A run recorded without
 * one cannot be checked and is driven as before. Background drivers (workers, the api) never get here:
 * they leave such a run `running` for a process configured with its CRM, saying why once
 * (run-drivers.ts: sourceRefusal), and `idem sync resume` refuses it with sourceMovedReason.
 */
export function decideSourceMoved(run: ImportRunState, configured: Pick<ContactSource, 'identity'>): ImportEvent | undefined {
  const reason = sourceMovedReason(run, configured);
  return reason === undefined ? undefined : { type: 'ImportRunNeedsReview', data: { runId: run.runId, reason } };
}

/** Why the run cannot be driven against `configured` (undefined: it can); `idem sync resume` refuses with it too. */
export function sourceMovedReason(run: ImportRunState, configured: Pick<ContactSource, 'identity'>): string | undefined {
  const recorded = run.started?.sourceIdentity;
  if (recorded === undefined || recorded === configured.identity) return undefined;
  const here = configured.identity === undefined ? 'a source that names no address' : configured.identity;
  // The way out when the CRM itself moved (a new host, a restarted sandbox on another port): no process
  // will ever be configured with the old address, so the operator says that the run's CRM is the one here.
  const adopt =
    configured.identity === undefined
      ? ''
      : `; if that CRM now answers at ${configured.identity}, \`idem sync resume ${run.runId} --source-moved\` there drives the run against it`;
  return boundedReason(
    `the run started against the contact source ${run.source} at ${recorded}, and ${run.source} is configured here as ${here}: nothing was pulled from it (a run is driven only against the source it started with); resume it where ${run.source} is ${recorded} (IDEM_CRM_URL=${recorded})${adopt}`,
  );
}

/** No attempt was made: a source the run names that is not configured here has no address to ask. */
export function decideSourceMissing(run: ImportRunState): ImportEvent {
  const reason = `no contact source is configured here under the name ${run.source}, so the page at cursor ${cursorText(run)} cannot be pulled; configure it and resume the run`;
  return { type: 'ImportRunNeedsReview', data: { runId: run.runId, reason } };
}

/** The error is the store's or a broken rule's, not the source's: driving the run again would meet it again. */
export function decideDriverGaveUp(run: ImportRunState, error: string): ImportEvent {
  const reason = boundedReason(`the page at cursor ${cursorText(run)} stopped on an error that driving the run again cannot fix: ${error}`);
  return { type: 'ImportRunNeedsReview', data: { runId: run.runId, reason } };
}

const cursorText = (run: ImportRunState) => run.cursor ?? '(start)';
