/**
 * Starting, resuming and finding pull runs. A run is started by recording ImportRunStarted; driving
 * it is separate (drive-run.ts), so a run whose driver died is picked up by the next worker to start
 * (`unfinishedRuns`) or by `idem sync resume`.
 */
import { randomUUID } from 'node:crypto';
import { toEventToAppend } from '../../../src/command-handling/event-to-append';
import { appendLinked } from '../../../src/command-handling/append-linked';
import type { CommandContext } from '../../../src/command-handling/handle-command';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { IMPORT_CATEGORY, importStream, type ImportEvent, type ImportRunStarted } from '../contact.events';
import { evolveImportRun, initialImportRunState, type ImportRunState } from '../import-run.state';
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

/** A stopped run goes on; a running one is left to its driver. */
export async function resumeRun(store: EventStore, runId: string, by: string, metadata: CommandContext['metadata']): Promise<void> {
  const run = await loadRun(store, runId);
  if (!run.exists) throw new Error(`no import run ${runId}`);
  if (run.status === 'completed') return;
  if (run.status !== 'running') await appendOne(store, runId, { type: 'ImportRunResumed', data: { runId, by } }, run.revision, metadata);
}

/**
 * Every run's kind and status, folded from its lifecycle events alone (they are all a status depends
 * on), read from the whole log. A starting worker asks (unfinishedRuns), and it must not miss a run:
 * the sync_runs read model, which the run list reads, may still be catching up at that moment. (A
 * running worker's orphan sweep asks the read model instead: resume-runs.ts.)
 */
async function runLifecycles(store: EventStore): Promise<ImportRunState[]> {
  const events = await store.readAll({ filter: { streamCategories: [IMPORT_CATEGORY], eventTypes: LIFECYCLE }, maxCount: 1_000_000 });
  const runs = new Map<string, ImportRunState>();
  for (const e of events) {
    const runId = (e.data as { runId: string }).runId;
    runs.set(runId, evolveImportRun(runs.get(runId) ?? initialImportRunState(), e as unknown as ImportEvent));
  }
  return [...runs.values()].filter((run) => run.exists);
}

export async function unfinishedRuns(store: EventStore, kind: 'pull' | 'file' = 'pull'): Promise<string[]> {
  return (await runLifecycles(store)).filter((run) => run.kind === kind && run.status === 'running').map((run) => run.runId);
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
