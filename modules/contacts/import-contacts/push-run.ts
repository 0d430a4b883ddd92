/**
 * A push batch is recorded as a run of its own, `import-push.<id>`: ImportRunStarted (the claim, with
 * the request's fingerprint), one ImportRecordProcessed per record (the audit trail: what each record
 * became and why, stale and conflicting ones included), ImportRunCompleted with the counts. The claim
 * is appended before any contact is written (push-claim.decision.ts); the records' events follow in
 * appends that each fit the store's limit, so a run without ImportRunCompleted is still in progress,
 * or was left by a request that died (taken over after a lease, with ImportRunResumed). Runs recorded
 * before the claim existed hold all their events in one append and read the same. With an
 * Idempotency-Key the run id comes from the caller's token and the key, and the recorded answers are
 * what a retry of the request gets back.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import type { ImportEvent, ImportOutcome, ImportRecordProcessed, ImportRunStarted } from '../contact.events';
import { countOutcomes, recordProcessed } from '../import-run.audit';
import type { RecordResult } from './import-records';

export interface RecordAnswer {
  sourceId: string | null;
  outcome: ImportOutcome;
  revision: number | null;
  reason?: string;
}

export function pushRunId(tokenId: string, idempotencyKey: string | undefined): string {
  if (!idempotencyKey) return `push.${randomUUID()}`;
  return `push.${createHash('sha256').update(`${tokenId}\u0000${idempotencyKey}`).digest('hex').slice(0, 32)}`;
}

export const toAnswer = ({ sourceId, outcome, revision, reason, ...rest }: RecordResult | RecordAnswer): RecordAnswer => ({
  sourceId: sourceId ?? ('sentSourceId' in rest ? rest.sentSourceId : undefined) ?? null,
  outcome,
  revision,
  ...(reason ? { reason } : {}),
});

/** `batch`: whether the request had an Idempotency-Key and how many records it sent (runs recorded before have neither). */
export const pushClaim = (
  runId: string,
  source: string,
  startedBy: string,
  requestFingerprint: string,
  batch?: { idempotencyKey: boolean; records: number },
): ImportRunStarted => ({
  type: 'ImportRunStarted',
  data: { runId, source, startedBy, kind: 'push', requestFingerprint, ...batch },
});

/** What follows the claim: each record's outcome, then the run's counts over every answer (`all`). */
export const pushRecordEvents = (runId: string, source: string, results: RecordResult[], all: RecordAnswer[]): ImportEvent[] => [
  ...results.map((result) => recordProcessed(runId, source, result)),
  { type: 'ImportRunCompleted', data: { runId, counts: countOutcomes(all) } },
];

/** A whole push run as one list of events, as pushes were recorded before the claim came first. */
export const pushRunEvents = (
  runId: string,
  source: string,
  startedBy: string,
  requestFingerprint: string,
  results: RecordResult[],
): ImportEvent[] => [pushClaim(runId, source, startedBy, requestFingerprint), ...pushRecordEvents(runId, source, results, results)];

/** A push run folded from its stream. */
export interface PushRun {
  /** The stream's last revision (-1: nothing recorded, the key is free). */
  revision: number;
  requestFingerprint?: string;
  completed: boolean;
  /** The answers recorded so far, by the record's place in the batch. */
  answers: Map<number, RecordAnswer>;
  /** When the run's last event was recorded: a run silent for a lease is taken over. */
  lastRecordedAt?: string;
  /** Ended without answers: a worker found it abandoned (abandon-push.decision.ts). */
  failed?: boolean;
  /** From the claim, when it says: whether the request had an Idempotency-Key, and how many records it sent. */
  idempotencyKey?: boolean;
  records?: number;
}

export function foldPushRun(events: RecordedEvent[]): PushRun {
  const run: PushRun = { revision: -1, completed: false, answers: new Map() };
  for (const event of events) {
    run.revision = event.revision;
    run.lastRecordedAt = event.metadata.recordedAt;
    if (event.type === 'ImportRunStarted') {
      const { requestFingerprint, idempotencyKey, records } = event.data as ImportRunStarted['data'];
      Object.assign(run, { requestFingerprint, idempotencyKey, records });
    }
    if (event.type === 'ImportRunCompleted') run.completed = true;
    if (event.type === 'ImportRunFailed') run.failed = true;
    if (event.type === 'ImportRecordProcessed') {
      const d = event.data as ImportRecordProcessed['data'];
      const sourceId = d.outcome === 'rejected' && d.sourceId === '' ? null : d.sourceId;
      run.answers.set(
        d.seq,
        toAnswer({ sourceId, sentSourceId: d.sentSourceId, outcome: d.outcome, revision: d.revision, reason: d.reason }),
      );
    }
  }
  return run;
}

/** The recorded answers in record order. */
export const answersInOrder = (run: PushRun): RecordAnswer[] =>
  [...run.answers.entries()].sort(([a], [b]) => a - b).map(([, answer]) => answer);
