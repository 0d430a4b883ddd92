import type { ImportEvent } from './contact.events';
import { evolveImportRun, initialImportRunState, recordedTotals, totalsOf, type ImportRunState } from './import-run.state';

const at = { recordedAt: '2026-12-03T10:00:00.000Z' };
const processed = (outcome: 'imported' | 'updated' | 'rejected', seq: number): ImportEvent => ({
  type: 'ImportRecordProcessed',
  data: { runId: 'r', seq, source: 'crm', sourceId: `c${seq}`, outcome, revision: 0 },
});

/** A state with every field set to something other than its initial value. */
const everyFieldSet = (): ImportRunState => ({
  exists: true,
  runId: 'r',
  source: 'crm',
  kind: 'file',
  started: { runId: 'r', source: 'crm', startedBy: 'sync', kind: 'file' },
  status: 'running',
  cursor: '500',
  readToEnd: true,
  pages: 3,
  processed: 1500,
  recordedInPage: 2,
  counts: { updated: 1, imported: 2 },
  conflictPagesInARow: 1,
  firstRejection: { seq: 7, sourceId: '', reason: 'line 8 is not valid JSON' },
  fileResumeAt: { byte: 100, line: 501 },
  reason: 'why',
  revision: 1504,
  startedAt: '2026-12-03T09:00:00.000Z',
  updatedAt: '2026-12-03T09:30:00.000Z',
});

describe('evolveImportRun', () => {
  it('carries every field of the state it evolves (the copy names each field: none may be left out)', () => {
    const state = everyFieldSet();
    expect(Object.keys(state).sort()).toEqual(Object.keys(initialImportRunState()).sort());
    const next = evolveImportRun(state, { ...processed('rejected', 1500), metadata: at });
    expect(next).toEqual({
      ...state,
      processed: 1501,
      recordedInPage: 3,
      counts: { updated: 1, imported: 2, rejected: 1 },
      revision: 1505,
      updatedAt: at.recordedAt,
    });
  });

  it('leaves the state it evolves as it was, and keeps the outcomes in the order first seen (ImportRunCompleted records them so)', () => {
    const state = everyFieldSet();
    const next = [processed('imported', 0), processed('rejected', 1), processed('updated', 2)].reduce(evolveImportRun, state);
    expect(state).toEqual(everyFieldSet());
    expect(next.firstRejection).toEqual(state.firstRejection);
    expect(Object.entries(next.counts)).toEqual([
      ['updated', 2],
      ['imported', 3],
      ['rejected', 1],
    ]);
  });

  it("keeps the run's first rejected record: what it was sent as, and why", () => {
    const rejected: ImportEvent = {
      type: 'ImportRecordProcessed',
      data: { runId: 'r', seq: 4, source: 'crm', sourceId: '', sentSourceId: ' x', outcome: 'rejected', reason: 'bad key', revision: null },
    };
    const run = [processed('imported', 3), rejected, processed('rejected', 5)].reduce(evolveImportRun, initialImportRunState());
    expect(run.firstRejection).toStrictEqual({ seq: 4, sourceId: ' x', reason: 'bad key' });
  });

  it('keeps the place a file run recorded when a later slice records none', () => {
    const page = (resumeAt?: object): ImportEvent =>
      ({
        type: 'ImportPageFetched',
        data: { runId: 'r', cursor: '0', nextCursor: '9', records: 1, ...(resumeAt ? { resumeAt } : {}) },
      }) as ImportEvent;
    const placed = evolveImportRun(initialImportRunState(), page({ byte: 40, line: 10, headerEnd: 7, lineBreak: 'lf' }));
    expect(placed.fileResumeAt).toEqual({ byte: 40, line: 10, headerEnd: 7, lineBreak: 'lf' });
    expect(evolveImportRun(placed, page()).fileResumeAt).toEqual(placed.fileResumeAt);
    expect(evolveImportRun(initialImportRunState(), page({ byte: 'x', line: 1 })).fileResumeAt).toBeUndefined();
  });
});

describe('recordedTotals', () => {
  it('reads the totals a page carries, and refuses ones recorded before totals named the first rejection when the run had one', () => {
    const totals = totalsOf(everyFieldSet());
    expect(recordedTotals({ run: totals })).toEqual(totals);
    const { firstRejection, ...before } = totals;
    expect(firstRejection).toBeDefined();
    expect(recordedTotals({ run: before })).toEqual(before);
    // Only a run that had a rejection lost something: a fold from these would not name it.
    expect(recordedTotals({ run: { ...before, counts: { ...before.counts, rejected: 1 } } })).toBeUndefined();
  });
});
