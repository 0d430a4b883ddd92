/**
 * Whether a worker ends a push run its request left unfinished. A request without an Idempotency-Key
 * gets a random run id, so no retry can ever take its run over (push-claim.decision.ts): a run such a
 * request left after its claim (it died, or its process was killed mid-batch) would stay `running` for
 * ever, its records without audit. Once it has been silent for longer than the claim lease plus a
 * margin, no live request is still writing it, and the run ends: ImportRunFailed at the run's
 * revision, so a request still alive that appends first wins and the run is left to it.
 *
 * A run with a key is left alone: a retry with the same key and body takes it over and finishes it.
 */
import type { ImportRunFailed } from '../contact.events';
import { PUSH_CLAIM_LEASE_MS } from './push-claim.decision';
import type { PushRun } from './push-run';

/**
 * Beyond the lease, before a keyless run counts as abandoned. A live request records its answers in one
 * go after importing its records (seconds for 1,000); two more minutes leave a request slowed down by a
 * busy store room to finish, and a run abandoned still ends within minutes.
 */
export const PUSH_ABANDON_MARGIN_MS = 120_000;
export const PUSH_ABANDONED_AFTER_MS = PUSH_CLAIM_LEASE_MS + PUSH_ABANDON_MARGIN_MS;

export type AbandonDecision =
  { kind: 'leave'; why: 'not_claimed' | 'ended' | 'keyed' | 'recent' } | { kind: 'end'; revision: number; event: ImportRunFailed };

/** `push.<uuid>`: the run id of a request without a key (pushRunId); with a key it is `push.<32 hex>`. */
const KEYLESS_RUN_ID = /^push\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The claim says whether the request had a key; for runs claimed before it did, the run id's form does. */
export const isKeyless = (runId: string, run: PushRun): boolean =>
  run.idempotencyKey === false || (run.idempotencyKey === undefined && KEYLESS_RUN_ID.test(runId));

export function decideAbandon(runId: string, run: PushRun, now: Date): AbandonDecision {
  if (run.revision < 0) return { kind: 'leave', why: 'not_claimed' };
  if (run.completed || run.failed) return { kind: 'leave', why: 'ended' };
  if (!isKeyless(runId, run)) return { kind: 'leave', why: 'keyed' };
  const silentFor = now.getTime() - Date.parse(run.lastRecordedAt ?? '');
  // An unreadable time counts as recent: ending a live request's run is the one harm to avoid.
  if (!(silentFor > PUSH_ABANDONED_AFTER_MS)) return { kind: 'leave', why: 'recent' };
  return { kind: 'end', revision: run.revision, event: { type: 'ImportRunFailed', data: { runId, error: abandonedReason(run) } } };
}

function abandonedReason(run: PushRun): string {
  const answered = run.records === undefined ? `${run.answers.size}` : `${run.answers.size} of ${run.records}`;
  return (
    `abandoned: the request that pushed this batch stopped after ${answered} records were answered and had no ` +
    'Idempotency-Key, so no retry can take it over; records it wrote are in their contact streams; send the ' +
    'batch again to have every record answered and audited'
  );
}
