/**
 * `sync_runs`: one row per import run, folded from `import-<runId>` through the run's own view fold
 * (evolveRunView, which is evolveImportRun), so the run list cannot disagree with GET
 * /v1/sync/runs/{runId}, which folds the stream. Pure: no I/O, no clock.
 */
import { IMPORT_CATEGORY, IMPORT_OUTCOMES, type ImportEvent, type ImportOutcome } from '../../modules/contacts/contact.events';
import { evolveRunView, type RunView } from '../../modules/contacts/import-run.view';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { SyncRunRow } from './sync-runs.entity';

const STREAM_PREFIX = `${IMPORT_CATEGORY}-`;

// Every event of a run's stream moves its view; a type added to ImportEvent fails to compile until listed here.
const RUN_EVENT_TYPES = Object.keys({
  ImportRunStarted: true,
  ImportPageFetched: true,
  ImportRecordProcessed: true,
  ImportRunCompleted: true,
  ImportRunFailed: true,
  ImportRunNeedsReview: true,
  ImportRunResumed: true,
} satisfies Record<ImportEvent['type'], true>);

type CountColumn = 'imported' | 'updated' | 'unchanged' | 'skippedStale' | 'duplicate' | 'deleted' | 'rejected' | 'conflict';

const COUNT_COLUMNS: Record<ImportOutcome, CountColumn> = {
  imported: 'imported',
  updated: 'updated',
  unchanged: 'unchanged',
  skipped_stale: 'skippedStale',
  duplicate: 'duplicate',
  deleted: 'deleted',
  rejected: 'rejected',
  conflict: 'conflict',
};

export const runIdOf = (event: RecordedEvent) => event.stream.slice(STREAM_PREFIX.length);

export function evolveSyncRunRow(row: SyncRunRow | undefined, event: RecordedEvent): SyncRunRow | undefined {
  // Already reflected (a replayed delivery): the row is a function of the stream up to `revision`.
  if (row && event.revision <= row.revision) return row;
  const view = evolveRunView(row && runViewOf(row), event as unknown as ImportEvent & { metadata?: { recordedAt: string } });
  return view && syncRunRowOf(view, event.revision);
}

export function syncRunRowOf(view: RunView, revision: number): SyncRunRow {
  const counts = {} as Record<CountColumn, number>;
  for (const outcome of IMPORT_OUTCOMES) counts[COUNT_COLUMNS[outcome]] = view.counts[outcome];
  return {
    runId: view.runId,
    source: view.source,
    kind: view.kind,
    status: view.status,
    processed: view.processed,
    pages: view.pages,
    ...counts,
    cursor: view.cursor,
    sourceIdentity: view.sourceIdentity,
    reason: view.reason ?? null,
    startedAt: startedAtTimes.toDate(view.startedAt),
    updatedAt: updatedAtTimes.toDate(view.updatedAt),
    revision,
  };
}

/** The row as GET /v1/sync/runs answers it: the same shape toRunView gives the run folded from its stream. */
export function runViewOf(row: SyncRunRow): RunView {
  const counts = {} as Record<ImportOutcome, number>;
  for (const outcome of IMPORT_OUTCOMES) counts[outcome] = row[COUNT_COLUMNS[outcome]];
  return {
    runId: row.runId,
    source: row.source,
    kind: row.kind,
    status: row.status,
    processed: row.processed,
    pages: row.pages,
    counts,
    cursor: row.cursor,
    // Undefined: a table version made before the column, read before sync-runs.migration.ts added it.
    sourceIdentity: row.sourceIdentity ?? null,
    ...(row.reason ? { reason: row.reason } : {}),
    startedAt: startedAtTimes.toText(row.startedAt),
    updatedAt: updatedAtTimes.toText(row.updatedAt),
  };
}

/**
 * A row's time as the fold's ISO text and back, remembering the last pair: the run list converts both
 * of a run's times twice per event, and a page's events share them (one `recordedAt` per append), so
 * nearly every conversion is the one just made. Rows' Dates are never mutated, so sharing one is safe.
 */
class LastTime {
  private text: string | undefined;
  private date: Date | null = null;

  toDate(text: string | undefined): Date | null {
    if (!text) return null;
    if (text !== this.text) {
      this.text = text;
      this.date = new Date(text);
    }
    return this.date;
  }

  toText(date: Date | null): string | undefined {
    if (!date) return undefined;
    if (date !== this.date) {
      this.date = date;
      this.text = date.toISOString();
    }
    return this.text;
  }
}

const startedAtTimes = new LastTime();
const updatedAtTimes = new LastTime();

export const syncRunsReadModel: ReadModel<SyncRunRow> = {
  name: 'sync_runs',
  entity: SyncRunRow,
  filter: { streamCategories: [IMPORT_CATEGORY], eventTypes: RUN_EVENT_TYPES },
  keyOf: (event) => ({ runId: runIdOf(event) }),
  evolve: evolveSyncRunRow,
};
