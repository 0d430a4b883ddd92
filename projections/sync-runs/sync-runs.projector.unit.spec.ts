import { evolveImportRun, initialImportRunState, toRunView, type ImportEvent } from '../../modules/contacts';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { foldReadModel } from '../../src/subscriptions/read-models/read-model';
import { runViewOf, syncRunsReadModel } from './sync-runs.projector';

let revision = 0;
function recorded(event: ImportEvent, stream = 'import-run.7'): RecordedEvent {
  const at = new Date(Date.UTC(2026, 1, 1, 10, 0, revision)).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    stream,
    revision: revision++,
    position: `1/${revision}` as RecordedEvent['position'],
    type: event.type,
    data: event.data,
    metadata: { correlationId: 'run.7', causationId: 'run.7', actor: { role: 'sync', tokenId: 't' }, recordedAt: at },
    created: new Date(at),
  };
}

const runId = 'run.7';
const started = (kind: 'pull' | 'file' | 'push' = 'pull', sourceIdentity?: string) =>
  recorded({
    type: 'ImportRunStarted',
    data: { runId, source: 'crm', startedBy: 'sync', kind, ...(sourceIdentity ? { sourceIdentity } : {}) },
  });
const page = (cursor: string | null, nextCursor: string | null, records: number) =>
  recorded({ type: 'ImportPageFetched', data: { runId, cursor, records, nextCursor } });
const processed = (seq: number, outcome: 'imported' | 'updated' | 'rejected') =>
  recorded({ type: 'ImportRecordProcessed', data: { runId, seq, source: 'crm', sourceId: `c${seq}`, outcome, revision: 0 } });

const rowAfter = (events: RecordedEvent[]) => foldReadModel(syncRunsReadModel, events).get(runId);
/** What GET /v1/sync/runs/{runId} answers after the same events: the run folded from its stream. */
const getAfter = (events: RecordedEvent[]) =>
  toRunView(
    events.reduce(
      (run, e) => evolveImportRun(run, e as unknown as ImportEvent & { metadata: { recordedAt: string } }),
      initialImportRunState(),
    ),
  );

beforeEach(() => {
  revision = 0;
});

describe('sync_runs projector', () => {
  it('keeps a pull run page by page, with its counts, cursor and times, as GET shows it after every event', () => {
    const events = [started(), processed(0, 'imported'), processed(1, 'updated'), page(null, 'p2', 2), processed(2, 'rejected')];
    for (let n = 1; n <= events.length; n++) expect(runViewOf(rowAfter(events.slice(0, n))!)).toEqual(getAfter(events.slice(0, n)));
    expect(rowAfter(events)).toMatchObject({
      runId,
      source: 'crm',
      kind: 'pull',
      status: 'running',
      processed: 3,
      pages: 1,
      imported: 1,
      updated: 1,
      rejected: 1,
      skippedStale: 0,
      cursor: 'p2',
      reason: null,
      startedAt: new Date('2026-02-01T10:00:00.000Z'),
      updatedAt: new Date('2026-02-01T10:00:04.000Z'),
      revision: 4,
    });
  });

  it('shows a completed run as completed with nothing left to fetch', () => {
    const events = [
      started(),
      processed(0, 'imported'),
      page(null, null, 1),
      recorded({ type: 'ImportRunCompleted', data: { runId, counts: {} } }),
    ];
    expect(rowAfter(events)).toMatchObject({ status: 'completed', cursor: null, processed: 1, imported: 1, revision: 3 });
  });

  describe('when a stop rule stopped the run and someone resumed it', () => {
    it('shows the reason while it waits for review, and a running run without one after the resume', () => {
      const events = [
        started(),
        page(null, 'p2', 0),
        recorded({ type: 'ImportRunNeedsReview', data: { runId, reason: 'page p2 failed 5 times in a row' } }),
      ];
      expect(rowAfter(events)).toMatchObject({ status: 'needs_review', reason: 'page p2 failed 5 times in a row' });
      events.push(recorded({ type: 'ImportRunResumed', data: { runId, by: 'cli' } }));
      expect(rowAfter(events)).toMatchObject({ status: 'running', reason: null, cursor: 'p2' });
      expect(runViewOf(rowAfter(events)!)).toEqual(getAfter(events));
    });
  });

  describe('when the run recorded the CRM it started with', () => {
    const crm = 'http://127.0.0.1:3100';
    const moved = 'http://127.0.0.1:4100';

    it('shows that CRM, and the new one after a resume that moved its source (as GET shows it)', () => {
      const events = [started('pull', crm), page(null, 'p2', 0)];
      expect(rowAfter(events)).toMatchObject({ sourceIdentity: crm });
      events.push(
        recorded({ type: 'ImportRunNeedsReview', data: { runId, reason: 'the run started against the contact source crm at …' } }),
      );
      events.push(recorded({ type: 'ImportRunResumed', data: { runId, by: 'cli', sourceIdentity: moved } }));
      expect(rowAfter(events)).toMatchObject({ status: 'running', sourceIdentity: moved });
      expect(runViewOf(rowAfter(events)!)).toEqual(getAfter(events));
      expect(getAfter(events).sourceIdentity).toBe(moved);
    });

    it('keeps it through a resume that did not move the source', () => {
      const events = [started('pull', crm), recorded({ type: 'ImportRunResumed', data: { runId, by: 'cli' } })];
      expect(rowAfter(events)).toMatchObject({ sourceIdentity: crm });
      expect(runViewOf(rowAfter(events)!)).toEqual(getAfter(events));
    });
  });

  it('shows no CRM (null) for a run recorded without one, and for a file run', () => {
    expect(rowAfter([started()])).toMatchObject({ sourceIdentity: null });
    expect(runViewOf(rowAfter([started()])!)).toMatchObject({ sourceIdentity: null });
    revision = 0;
    expect(rowAfter([started('file')])).toMatchObject({ sourceIdentity: null });
  });

  it('shows a failed run with its error as the reason', () => {
    const events = [started('file'), recorded({ type: 'ImportRunFailed', data: { runId, error: 'the file is gone' } })];
    expect(rowAfter(events)).toMatchObject({ kind: 'file', status: 'failed', reason: 'the file is gone' });
  });

  it('ignores an event it has already reflected (a replayed delivery)', () => {
    const events = [started(), processed(0, 'imported')];
    const row = rowAfter(events)!;
    expect(syncRunsReadModel.evolve(row, events[1])).toBe(row);
  });

  it('shows nothing for a stream whose start it has not seen', () => {
    expect(rowAfter([page(null, 'p2', 0)])).toBeUndefined();
  });
});
