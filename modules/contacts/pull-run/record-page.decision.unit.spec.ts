import { initialImportRunState, type ImportRunState } from '../import-run.state';
import type { RecordResult } from '../import-contacts/import-records';
import {
  decideDriverGaveUp,
  decideFetchGaveUp,
  decideNothingLeftToRead,
  decidePage,
  decideSourceMissing,
  decideSourceMoved,
  decideUnrecordableCursor,
  MAX_CONFLICT_PAGES_IN_A_ROW,
  MAX_CURSOR_CHARS,
  MAX_FETCH_ATTEMPTS,
  nextCursorOf,
  sourceMovedReason,
} from './record-page.decision';
import { evolveImportRun } from '../import-run.state';

const run = (overrides: Partial<ImportRunState> = {}): ImportRunState => ({
  ...initialImportRunState(),
  exists: true,
  runId: 'r1',
  source: 'crm',
  processed: 500,
  counts: { imported: 500 },
  cursor: 'c1',
  ...overrides,
});
const result = (seq: number, outcome: RecordResult['outcome']): RecordResult => ({
  seq,
  sourceId: `s${seq}`,
  outcome,
  revision: outcome === 'imported' ? 0 : null,
});

describe('decidePage', () => {
  describe('when a middle page was imported', () => {
    it('records every outcome, then the page with its cursors, first sequence number and conflicts, and does not complete the run', () => {
      const events = decidePage(run(), {
        cursor: 'c1',
        nextCursor: 'c2',
        results: [result(500, 'imported'), result(501, 'skipped_stale')],
      });
      expect(events.map((e) => e.type)).toEqual(['ImportRecordProcessed', 'ImportRecordProcessed', 'ImportPageFetched']);
      expect(events[0].data).toMatchObject({ runId: 'r1', sourceId: 's500', outcome: 'imported' });
      expect(events[1].data).toMatchObject({ sourceId: 's501', outcome: 'skipped_stale' });
      expect(events[2]).toStrictEqual({
        type: 'ImportPageFetched',
        data: { runId: 'r1', cursor: 'c1', nextCursor: 'c2', records: 2, firstSeq: 500, conflicts: 0 },
      });
    });
  });

  describe('when the last page was imported (no next cursor)', () => {
    it('completes the run with the counts of the whole run', () => {
      const events = decidePage(run(), { cursor: 'c9', nextCursor: null, results: [result(500, 'imported'), result(501, 'duplicate')] });
      expect(events.at(-1)).toStrictEqual({ type: 'ImportRunCompleted', data: { runId: 'r1', counts: { imported: 501, duplicate: 1 } } });
    });
  });

  describe('when the source contradicts itself', () => {
    it(`records a page with conflicts while fewer than ${MAX_CONFLICT_PAGES_IN_A_ROW} pages in a row had them`, () => {
      const events = decidePage(run({ conflictPagesInARow: MAX_CONFLICT_PAGES_IN_A_ROW - 2 }), {
        cursor: 'c1',
        nextCursor: 'c2',
        results: [result(500, 'conflict')],
      });
      expect(events.at(-1)).toMatchObject({ type: 'ImportPageFetched', data: { conflicts: 1 } });
    });

    it(`stops the run for review on the ${MAX_CONFLICT_PAGES_IN_A_ROW}rd page in a row, recording nothing of that page`, () => {
      const events = decidePage(run({ conflictPagesInARow: MAX_CONFLICT_PAGES_IN_A_ROW - 1 }), {
        cursor: null,
        nextCursor: 'c2',
        results: [result(0, 'conflict'), result(1, 'imported'), result(2, 'conflict')],
      });
      expect(events).toStrictEqual([
        {
          type: 'ImportRunNeedsReview',
          data: { runId: 'r1', reason: 'the source contradicted itself on 3 pages in a row (the last at cursor (start): 2 records)' },
        },
      ]);
    });

    it('does not stop on a page without conflicts, whatever came before', () => {
      const events = decidePage(run({ conflictPagesInARow: MAX_CONFLICT_PAGES_IN_A_ROW - 1 }), {
        cursor: 'c1',
        nextCursor: 'c2',
        results: [result(500, 'imported')],
      });
      expect(events.map((e) => e.type)).toEqual(['ImportRecordProcessed', 'ImportPageFetched']);
    });
  });
});

describe('decidePage, when the next cursor leads back to a page the run already began from', () => {
  it('stops the run for review, naming both cursors, and records nothing of the page', () => {
    const events = decidePage(run(), { cursor: 'c1', nextCursor: 'c1', results: [result(500, 'unchanged')], nextCursorSeen: true });
    expect(events).toStrictEqual([
      {
        type: 'ImportRunNeedsReview',
        data: {
          runId: 'r1',
          reason:
            'the source gave cursor c1 as the next after cursor c1, and a page of this run already began there: following it would go round for ever',
        },
      },
    ]);
  });

  it('completes the run on its last page whatever came before (no next cursor is no loop)', () => {
    const events = decidePage(run(), { cursor: 'c1', nextCursor: null, results: [result(500, 'imported')], nextCursorSeen: true });
    expect(events.at(-1)).toMatchObject({ type: 'ImportRunCompleted' });
  });
});

describe('decideFetchGaveUp', () => {
  it('stops the run for review, naming the page, the attempts and the last error', () => {
    expect(decideFetchGaveUp(run({ cursor: null }), MAX_FETCH_ATTEMPTS, 'HTTP 500')).toStrictEqual({
      type: 'ImportRunNeedsReview',
      data: { runId: 'r1', reason: 'page at cursor (start) failed 5 times in a row: HTTP 500' },
    });
    expect(decideFetchGaveUp(run(), 5, 'timeout')).toMatchObject({
      data: { reason: 'page at cursor c1 failed 5 times in a row: timeout' },
    });
  });
});

describe('decideSourceMissing', () => {
  it('stops the run for review, naming the source and the page, and no attempts (none was made)', () => {
    expect(decideSourceMissing(run())).toStrictEqual({
      type: 'ImportRunNeedsReview',
      data: {
        runId: 'r1',
        reason:
          'no contact source is configured here under the name crm, so the page at cursor c1 cannot be pulled; configure it and resume the run',
      },
    });
  });
});

describe('decideDriverGaveUp', () => {
  it('stops the run for review, naming the page and the error', () => {
    expect(decideDriverGaveUp(run({ cursor: null }), 'Stream contact-crm.7 was deleted')).toStrictEqual({
      type: 'ImportRunNeedsReview',
      data: {
        runId: 'r1',
        reason: 'the page at cursor (start) stopped on an error that driving the run again cannot fix: Stream contact-crm.7 was deleted',
      },
    });
  });

  it('bounds a long error as record reasons are bounded', () => {
    const { data } = decideDriverGaveUp(run(), 'x'.repeat(100_000)) as { data: { reason: string } };
    expect(data.reason.length).toBeLessThan(10_000);
    expect(data.reason).toMatch(/more characters\)$/);
  });
});

describe('decideUnrecordableCursor', () => {
  it('lets a last page (no next cursor) and any storable cursor up to the limit pass', () => {
    expect(decideUnrecordableCursor(run(), null)).toBeUndefined();
    expect(decideUnrecordableCursor(run(), 'c2')).toBeUndefined();
    expect(decideUnrecordableCursor(run(), 'x'.repeat(MAX_CURSOR_CHARS))).toBeUndefined();
    expect(decideUnrecordableCursor(run(), 'emoji 😀 pair')).toBeUndefined();
  });

  it('stops the run on a cursor holding a NUL, quoting it escaped and naming the page it came with', () => {
    const event = decideUnrecordableCursor(run(), 'c\u00002');
    expect(event).toStrictEqual({
      type: 'ImportRunNeedsReview',
      data: {
        runId: 'r1',
        reason:
          'the source answered the page at cursor c1 with a next cursor the run cannot record: it holds the character U+0000 (NUL), which cannot be stored ("c\\u00002"); nothing of that page was recorded: fix the source, then resume the run',
      },
    });
  });

  it('stops the run on a cursor holding a lone surrogate', () => {
    const event = decideUnrecordableCursor(run({ cursor: null }), 'c\ud8002');
    expect(event?.data).toMatchObject({ reason: expect.stringContaining('at cursor (start)') });
    expect((event?.data as { reason: string }).reason).toContain('lone UTF-16 surrogate');
    expect((event?.data as { reason: string }).reason).not.toMatch(/[\ud800-\udfff]/);
  });

  it(`stops the run on a cursor longer than ${MAX_CURSOR_CHARS} characters, quoting only its start`, () => {
    const event = decideUnrecordableCursor(run(), 'y'.repeat(MAX_CURSOR_CHARS + 1));
    const { reason } = event?.data as { reason: string };
    expect(reason).toContain(`is ${MAX_CURSOR_CHARS + 1} characters long, over the ${MAX_CURSOR_CHARS} a run records`);
    expect(reason.length).toBeLessThan(600);
  });
});

describe('decideNothingLeftToRead', () => {
  it('completes the run with the counts it has, recording no page', () => {
    expect(decideNothingLeftToRead(run({ readToEnd: true, pages: 3 }))).toStrictEqual({
      type: 'ImportRunCompleted',
      data: { runId: 'r1', counts: { imported: 500 } },
    });
  });
});

describe('nextCursorOf', () => {
  it('reads an empty cursor as the end of the source, as null is', () => {
    expect(nextCursorOf({ records: [], nextCursor: '' })).toBeNull();
    expect(nextCursorOf({ records: [], nextCursor: null })).toBeNull();
  });

  it('keeps any other cursor as the source spelled it, blank ones included', () => {
    expect(nextCursorOf({ records: [], nextCursor: 'c2' })).toBe('c2');
    expect(nextCursorOf({ records: [], nextCursor: ' ' })).toBe(' ');
  });

  it('so a page answered with an empty next cursor completes the run', () => {
    const events = decidePage(run(), { cursor: 'c9', nextCursor: nextCursorOf({ records: [], nextCursor: '' }), results: [] });
    expect(events.map((e) => e.type)).toEqual(['ImportPageFetched', 'ImportRunCompleted']);
  });
});

describe('the run fold, on a page recorded with an empty next cursor (before drivers read it as the end)', () => {
  it('knows the run has read to the end, so its next driver completes it instead of reading from the first page', () => {
    const folded = evolveImportRun(run(), { type: 'ImportPageFetched', data: { runId: 'r1', cursor: 'c1', nextCursor: '', records: 0 } });
    expect(folded.readToEnd).toBe(true);
    const middle = evolveImportRun(run(), { type: 'ImportPageFetched', data: { runId: 'r1', cursor: 'c1', nextCursor: 'c2', records: 0 } });
    expect(middle.readToEnd).toBe(false);
  });
});

describe('decideSourceMoved', () => {
  const startedAt = (sourceIdentity?: string) =>
    run({ started: { runId: 'r1', source: 'crm', startedBy: 'sync', kind: 'pull', ...(sourceIdentity ? { sourceIdentity } : {}) } });

  it('lets a run be driven against the source it started with', () => {
    expect(decideSourceMoved(startedAt('http://crm-a:3100'), { identity: 'http://crm-a:3100' })).toBeUndefined();
  });

  it('stops a run for review when the source configured here under its name is another, naming both addresses', () => {
    expect(decideSourceMoved(startedAt('http://crm-a:3100'), { identity: 'http://crm-b:3100' })).toStrictEqual({
      type: 'ImportRunNeedsReview',
      data: {
        runId: 'r1',
        reason:
          'the run started against the contact source crm at http://crm-a:3100, and crm is configured here as http://crm-b:3100: nothing was pulled from it (a run is driven only against the source it started with); resume it where crm is http://crm-a:3100 (IDEM_CRM_URL=http://crm-a:3100); if that CRM now answers at http://crm-b:3100, `idem sync resume r1 --source-moved` there drives the run against it',
      },
    });
  });

  it('stops a run for review when the source configured here names no address (it cannot be the same)', () => {
    const reason = sourceMovedReason(startedAt('http://crm-a:3100'), {});
    expect(reason).toContain('crm is configured here as a source that names no address');
    // Nothing to drive the run against instead: no --source-moved is offered.
    expect(reason).not.toContain('--source-moved');
  });

  it('drives a run against the address a --source-moved resume recorded, and no longer against the one it started with', () => {
    const resumed = evolveImportRun(startedAt('http://crm-a:3100'), {
      type: 'ImportRunResumed',
      data: { runId: 'r1', by: 'cli', sourceIdentity: 'http://crm-b:3100' },
    });
    expect(decideSourceMoved(resumed, { identity: 'http://crm-b:3100' })).toBeUndefined();
    expect(sourceMovedReason(resumed, { identity: 'http://crm-a:3100' })).toContain(
      'the run started against the contact source crm at http://crm-b:3100',
    );
    const plain = evolveImportRun(startedAt('http://crm-a:3100'), { type: 'ImportRunResumed', data: { runId: 'r1', by: 'cli' } });
    expect(plain.started?.sourceIdentity).toBe('http://crm-a:3100');
  });

  it('drives a run recorded without an identity (before runs recorded one) against whatever its name points at', () => {
    expect(decideSourceMoved(startedAt(), { identity: 'http://crm-b:3100' })).toBeUndefined();
  });
});
