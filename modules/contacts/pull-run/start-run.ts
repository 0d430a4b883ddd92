/**
 * Starting, resuming and finding pull runs. A run is started by recording ImportRunStarted; driving
 * it is separate (drive-run.ts), so a run whose driver died is picked up by the next worker to start
 * (`unfinishedRuns`) or by `idem sync resume`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { toEventToAppend } from '../../../src/command-handling/event-to-append';
import { appendLinked } from '../../../src/command-handling/append-linked';
import type { CommandContext } from '../../../src/command-handling/handle-command';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { IMPORT_CATEGORY, importStream, type ImportEvent, type ImportRunStarted } from '../contact.events';
import type { ContactSources } from '../contact-source/contact-source.port';
import { evolveImportRun, initialImportRunState, type ImportRunState } from '../import-run.state';
import type { RunsKnownAt } from '../import-run.view';
import { loadRun } from './drive-run';

const LIFECYCLE = ['ImportRunStarted', 'ImportRunCompleted', 'ImportRunFailed', 'ImportRunNeedsReview', 'ImportRunResumed'];

export async function startRun(
  store: EventStore,
  data: Omit<ImportRunStarted['data'], 'runId'>,
  metadata: CommandContext['metadata'],
  runId = `run.${randomUUID()}`,
): Promise<string> {
  await appendOne(store, runId, { type: 'ImportRunStarted', data: { runId, ...data } }, 'no_stream', metadata);
  return runId;
}

/**
 * A pull run from the source configured here under `source` (the caller checked that one is:
 * assertPullableSource), recording which source that is (its identity), so that no driver configured
 * with another under the same name drives it (record-page.decision.ts: decideSourceMoved).
 */
export function startPullRun(
  store: EventStore,
  sources: ContactSources,
  data: { source: string; startedBy: string; since?: string },
  metadata: CommandContext['metadata'],
  runId?: string,
): Promise<string> {
  const identity = sources(data.source)?.identity;
  return startRun(store, { ...data, kind: 'pull', ...(identity !== undefined ? { sourceIdentity: identity } : {}) }, metadata, runId);
}

/**
 * The run a POST /v1/sync/runs with an Idempotency-Key starts: one per token and key (as a keyed push's,
 * push-run.ts), so a repeat of the request finds it. Appended with `no_stream`: one of two racing requests starts it.
 */
export const keyedPullRunId = (tokenId: string, idempotencyKey: string): string =>
  `run.${createHash('sha256').update(`pull\u0000${tokenId}\u0000${idempotencyKey}`).digest('hex').slice(0, 32)}`;

/**
 * A stopped run goes on; a running one is left to its driver. `sourceIdentity` (`idem sync resume
 * --source-moved`): the run's source moved there, and the run is driven against it from now on; it is
 * recorded even on a running run, whose driver elsewhere then loses its next append.
 */
export async function resumeRun(
  store: EventStore,
  runId: string,
  by: string,
  metadata: CommandContext['metadata'],
  sourceIdentity?: string,
): Promise<void> {
  const run = await loadRun(store, runId);
  if (!run.exists) throw new Error(`no import run ${runId}`);
  if (run.status === 'completed') return;
  if (run.status !== 'running' || sourceIdentity !== undefined)
    await appendOne(
      store,
      runId,
      { type: 'ImportRunResumed', data: { runId, by, ...(sourceIdentity !== undefined ? { sourceIdentity } : {}) } },
      run.revision,
      metadata,
    );
}

/** Lifecycle events read per page: a page's events are in memory at once, never the whole log. */
export const LIFECYCLE_PAGE = 10_000;

/**
 * Every run's kind and status, folded from its lifecycle events alone (they are all a status depends
 * on). A starting worker asks (unfinishedRuns), and it must not miss a run: the sync_runs read model
 * may still be catching up at that moment. So the fold starts from what the read model knew at its
 * checkpoint (`known`) and reads only the lifecycle events after it, page by page; without `known`
 * it reads the whole log the same way. (A running worker's orphan sweep asks the read model alone:
 * resume-runs.ts.) Every push adds two lifecycle events, so on a long-lived store "the whole log"
 * was millions of events held in memory at once by every starting worker.
 */
async function runLifecycles(store: EventStore, known: RunsKnownAt | undefined, pageSize: number): Promise<ImportRunState[]> {
  const runs = new Map<string, ImportRunState>();
  for (const runId of known?.runningPullRuns ?? [])
    runs.set(runId, { ...initialImportRunState(), exists: true, runId, kind: 'pull', status: 'running' });
  let after = known?.checkpoint;
  for (;;) {
    const events = await store.readAll({
      after,
      filter: { streamCategories: [IMPORT_CATEGORY], eventTypes: LIFECYCLE },
      maxCount: pageSize,
    });
    for (const e of events) {
      const runId = (e.data as { runId: string }).runId;
      const before = runs.get(runId) ?? (known && e.type !== 'ImportRunStarted' ? await startedBeforeCheckpoint(store, runId) : undefined);
      runs.set(runId, evolveImportRun(before ?? initialImportRunState(), e as unknown as ImportEvent));
    }
    if (events.length < pageSize) break;
    after = events[events.length - 1].position;
  }
  return [...runs.values()].filter((run) => run.exists);
}

/**
 * A run the read model did not show running, touched after its checkpoint (resumed, most likely):
 * its kind comes from its first event, which is before the checkpoint.
 */
async function startedBeforeCheckpoint(store: EventStore, runId: string): Promise<ImportRunState | undefined> {
  const [started] = await store.readStream(importStream(runId), { maxCount: 1 });
  return started && evolveImportRun(initialImportRunState(), started as unknown as ImportEvent);
}

/**
 * The runs of `kind` still running. `known` (the sync_runs read model's pull runs) spares reading the
 * log before its checkpoint; it speaks of pull runs only, so file runs are always folded from the log.
 */
export async function unfinishedRuns(
  store: EventStore,
  kind: 'pull' | 'file' = 'pull',
  known?: RunsKnownAt,
  pageSize = LIFECYCLE_PAGE,
): Promise<string[]> {
  return (await runLifecycles(store, kind === 'pull' ? known : undefined, pageSize))
    .filter((run) => run.kind === kind && run.status === 'running')
    .map((run) => run.runId);
}

async function appendOne(
  store: EventStore,
  runId: string,
  event: ImportEvent,
  expected: 'no_stream' | number,
  metadata: CommandContext['metadata'],
): Promise<void> {
  const stream = importStream(runId);
  const recordedAt = new Date().toISOString();
  const toAppend = toEventToAppend(stream, { event, key: `${event.type}/${expected}` }, { ...metadata, correlationId: runId }, recordedAt);
  await appendLinked(store, stream, [toAppend], expected);
}
