/**
 * A push batch is recorded as a run of its own, `import-push.<id>`: ImportRunStarted, one
 * ImportRecordProcessed per record (the audit trail: what each record became and why, stale and
 * conflicting ones included), ImportRunCompleted with the counts — in one append, so a batch's audit
 * is all there or not at all. With an Idempotency-Key the run id comes from the caller's token and
 * the key, and the recorded answers are what a retry of the request gets back.
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

export const toAnswer = ({ sourceId, outcome, revision, reason }: RecordResult | RecordAnswer): RecordAnswer => ({
  sourceId,
  outcome,
  revision,
  ...(reason ? { reason } : {}),
});

export function pushRunEvents(
  runId: string,
  source: string,
  startedBy: string,
  requestFingerprint: string,
  results: RecordResult[],
): ImportEvent[] {
  return [
    { type: 'ImportRunStarted', data: { runId, source, startedBy, kind: 'push', requestFingerprint } },
    ...results.map((result) => recordProcessed(runId, source, result)),
    { type: 'ImportRunCompleted', data: { runId, counts: countOutcomes(results) } },
  ];
}

/** The answers a recorded push gave, in record order, and the body it answered; undefined if it never completed. */
export function recordedPush(events: RecordedEvent[]): { requestFingerprint?: string; answers: RecordAnswer[] } | undefined {
  if (!events.some((e) => e.type === 'ImportRunCompleted')) return undefined;
  const started = events.find((e) => e.type === 'ImportRunStarted')?.data as ImportRunStarted['data'] | undefined;
  const answers = events
    .filter((e) => e.type === 'ImportRecordProcessed')
    .map((e) => e.data as ImportRecordProcessed['data'])
    .sort((a, b) => a.seq - b.seq)
    .map((d) =>
      toAnswer({
        sourceId: d.outcome === 'rejected' && d.sourceId === '' ? null : d.sourceId,
        outcome: d.outcome,
        revision: d.revision,
        reason: d.reason,
      }),
    );
  return { requestFingerprint: started?.requestFingerprint, answers };
}
