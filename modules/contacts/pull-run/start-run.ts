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

/** Runs (pull and file) whose last lifecycle event leaves them running: to resume when a worker starts. */
export async function runsByStatus(store: EventStore): Promise<Map<string, { kind: string; status: string }>> {
  const events = await store.readAll({ filter: { streamCategories: [IMPORT_CATEGORY], eventTypes: LIFECYCLE }, maxCount: 1_000_000 });
  const runs = new Map<string, { kind: string; status: string }>();
  for (const e of events) {
    const runId = (e.data as { runId: string }).runId;
    if (e.type === 'ImportRunStarted') runs.set(runId, { kind: (e.data as ImportRunStarted['data']).kind ?? 'pull', status: 'running' });
    const run = runs.get(runId);
    if (!run) continue;
    if (e.type === 'ImportRunCompleted') run.status = 'completed';
    if (e.type === 'ImportRunFailed') run.status = 'failed';
    if (e.type === 'ImportRunNeedsReview') run.status = 'needs_review';
    if (e.type === 'ImportRunResumed') run.status = 'running';
  }
  return runs;
}

export async function unfinishedRuns(store: EventStore, kind: 'pull' | 'file' = 'pull'): Promise<string[]> {
  return [...(await runsByStatus(store))].filter(([, r]) => r.kind === kind && r.status === 'running').map(([runId]) => runId);
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
