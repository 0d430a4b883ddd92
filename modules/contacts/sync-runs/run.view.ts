import { IMPORT_OUTCOMES, type ImportOutcome } from '../contact.events';
import type { ImportRunState, RunStatus } from '../import-run.state';

/** GET /v1/sync/runs/{runId}: progress and outcome counts of one run. */
export interface RunView {
  runId: string;
  source: string;
  kind: string;
  status: RunStatus;
  processed: number;
  pages: number;
  counts: Record<ImportOutcome, number>;
  cursor: string | null;
  reason?: string;
  startedAt?: string;
  updatedAt?: string;
}

export function toRunView(run: ImportRunState): RunView {
  const counts = Object.fromEntries(IMPORT_OUTCOMES.map((o) => [o, run.counts[o] ?? 0])) as Record<ImportOutcome, number>;
  return {
    runId: run.runId,
    source: run.source,
    kind: run.kind,
    status: run.status,
    processed: run.processed,
    pages: run.pages,
    counts,
    cursor: run.cursor,
    ...(run.reason ? { reason: run.reason } : {}),
    startedAt: run.startedAt,
    updatedAt: run.updatedAt,
  };
}
