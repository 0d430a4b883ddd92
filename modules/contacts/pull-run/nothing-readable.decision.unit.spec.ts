import type { ImportEvent } from '../contact.events';
import type { RecordResult } from '../import-contacts/import-records';
import { evolveImportRun, initialImportRunState, type ImportRunState } from '../import-run.state';
import { decideNothingReadable, NOTHING_READABLE_WINDOW } from './nothing-readable.decision';
import { decidePage } from './record-page.decision';

const started = (kind: 'pull' | 'file' | 'push'): ImportRunState =>
  evolveImportRun(initialImportRunState(), { type: 'ImportRunStarted', data: { runId: 'r1', source: 'crm', startedBy: 'sync', kind } });

const results = (from: number, count: number, outcome: RecordResult['outcome'] = 'rejected'): RecordResult[] =>
  Array.from({ length: count }, (_, i) => ({
    seq: from + i,
    sourceId: outcome === 'rejected' ? '' : `s${from + i}`,
    outcome,
    revision: outcome === 'imported' ? 0 : null,
    ...(outcome === 'rejected' ? { reason: `line ${from + i + 1} is not valid JSON` } : {}),
  }));

/** The run after decidePage's events for one page are recorded. */
const recorded = (run: ImportRunState, events: ImportEvent[]) => events.reduce(evolveImportRun, run);

describe('a run whose first records are every one rejected (nothing could be read)', () => {
  describe(`when its first page of ${NOTHING_READABLE_WINDOW} or more records, more to come, is all rejected`, () => {
    it('records the page (its rejections counted) and stops the run for review, naming the first rejection', () => {
      const events = decidePage(started('file'), { cursor: null, nextCursor: '500', results: results(0, 500) });
      expect(events.slice(-2).map((e) => e.type)).toEqual(['ImportPageFetched', 'ImportRunNeedsReview']);
      expect(events.filter((e) => e.type === 'ImportRecordProcessed')).toHaveLength(500);
      expect(events.at(-1)!.data).toStrictEqual({
        runId: 'r1',
        reason:
          'nothing could be read: every one of its first 500 records was rejected (the first, record 1: line 1 is not valid JSON); is the file in the format its name says (.csv for CSV, any other name for NDJSON), with the header and delimiter expected? Fix it and import it again',
      });
      const run = recorded(started('file'), events);
      expect(run).toMatchObject({ status: 'needs_review', processed: 500, counts: { rejected: 500 } });
    });
  });

  describe('when a small file or source ends with every record rejected', () => {
    it('stops the run for review instead of completing it', () => {
      const events = decidePage(started('pull'), { cursor: null, nextCursor: null, results: results(0, 3) });
      expect(events.map((e) => e.type)).not.toContain('ImportRunCompleted');
      expect(events.at(-1)).toMatchObject({
        type: 'ImportRunNeedsReview',
        data: {
          reason: expect.stringMatching(/^nothing could be read: all 3 of its records were rejected \(the first, record 1: line 1 /),
        },
      });
      expect(events.at(-1)!.data).toMatchObject({ reason: expect.stringContaining('`idem sync resume r1` goes on') });
    });

    it('names the only record when there was one', () => {
      const stop = decideNothingReadable(started('file'), results(0, 1), true);
      expect(stop?.data.reason).toMatch(/^nothing could be read: its only record was rejected \(the first, record 1: /);
    });
  });

  describe('when the pages are smaller than the window (a CRM serving 40 records a page)', () => {
    it("goes on until the window is reached, then names the run's first rejection, from an earlier page", () => {
      let run = started('pull');
      for (const [cursor, next] of [
        [null, 'c1'],
        ['c1', 'c2'],
      ] as const) {
        const events = decidePage(run, { cursor, nextCursor: next, results: results(run.processed, 40) });
        expect(events.at(-1)!.type).toBe('ImportPageFetched');
        run = recorded(run, events);
      }
      const events = decidePage(run, { cursor: 'c2', nextCursor: 'c3', results: results(80, 40) });
      expect(events.at(-1)).toMatchObject({
        type: 'ImportRunNeedsReview',
        data: {
          reason: expect.stringContaining(
            'every one of its first 120 records was rejected (the first, record 1: line 1 is not valid JSON)',
          ),
        },
      });
    });
  });

  describe('when any record of the window was not rejected (a partly bad file)', () => {
    it('records the page and goes on, its rejections counted, and completes at the end', () => {
      const page = [...results(0, 499), ...results(499, 1, 'imported')];
      const events = decidePage(started('file'), { cursor: null, nextCursor: '500', results: page });
      expect(events.at(-1)!.type).toBe('ImportPageFetched');
      const run = recorded(started('file'), events);
      const last = decidePage(run, { cursor: '500', nextCursor: null, results: results(500, 500) });
      expect(last.at(-1)).toMatchObject({ type: 'ImportRunCompleted', data: { counts: { rejected: 999, imported: 1 } } });
    });

    it('does not stop a small run with one good record among its rejected ones', () => {
      expect(decideNothingReadable(started('file'), [...results(0, 3), ...results(3, 1, 'imported')], true)).toBeUndefined();
    });
  });

  describe('when the window is not reached yet and more is to come', () => {
    it('goes on', () => {
      expect(decideNothingReadable(started('pull'), results(0, NOTHING_READABLE_WINDOW - 1), false)).toBeUndefined();
    });
  });

  describe('when the run is past its window (resumed after this stop, or good at the start)', () => {
    it('does not stop it again, however many rejections follow', () => {
      const run = recorded(started('pull'), decidePage(started('pull'), { cursor: null, nextCursor: 'c1', results: results(0, 100) }));
      expect(run.status).toBe('needs_review');
      const resumed = evolveImportRun(run, { type: 'ImportRunResumed', data: { runId: 'r1', by: 'cli' } });
      const events = decidePage(resumed, { cursor: 'c1', nextCursor: null, results: results(100, 100) });
      expect(events.at(-1)).toMatchObject({ type: 'ImportRunCompleted', data: { counts: { rejected: 200 } } });
    });
  });

  describe('when a file ends with no records at all', () => {
    it('does not call it unreadable: there was nothing to read', () => {
      expect(decideNothingReadable(started('file'), [], true)).toBeUndefined();
    });
  });

  describe('for a pushed batch', () => {
    it('never stops it: each record has its own answer', () => {
      expect(decideNothingReadable(started('push'), results(0, 1000), true)).toBeUndefined();
    });
  });
});
