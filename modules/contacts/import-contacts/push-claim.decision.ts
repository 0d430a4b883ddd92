/**
 * Who may write a push run, decided from the run's stream before any contact is written (DESIGN.md
 * §9.4, §9.7: a refused request writes nothing). The first request under an Idempotency-Key claims
 * the run by appending its ImportRunStarted with `no_stream`; every other request with that key reads
 * the run and gets, as Stripe and the IETF Idempotency-Key draft answer:
 * - another body → 422 IDEMPOTENCY_KEY.REUSED, whether the run is finished or not;
 * - the same body, answers recorded → those answers, replayed;
 * - the same body, still in progress → 409 IDEMPOTENCY_KEY.IN_PROGRESS (retry later);
 * - the same body, but the run silent for PUSH_CLAIM_LEASE_MS (its request died before recording its
 *   answers) → taken over: ImportRunResumed at the run's revision (of two takers, one appends), and the
 *   records not yet answered are imported (those the dead request wrote answer duplicate/unchanged).
 */
import type { PushRun, RecordAnswer } from './push-run';
import { answersInOrder } from './push-run';

/**
 * How long a push run may stay unfinished before a retry takes it over, counted from its last recorded
 * event. A batch of 1,000 records is answered in seconds; 60 s leaves a slow one room and bounds how
 * long a client whose request died waits for its key to work again.
 */
export const PUSH_CLAIM_LEASE_MS = 60_000;

export type ClaimDecision =
  | { kind: 'claim' }
  | { kind: 'take_over'; revision: number }
  | { kind: 'replay'; answers: RecordAnswer[] }
  | { kind: 'reused' }
  | { kind: 'in_progress' };

export function decideClaim(
  run: PushRun,
  fingerprints: { fingerprint: string; legacyFingerprint: () => string },
  now: Date,
): ClaimDecision {
  if (run.revision < 0) return { kind: 'claim' };
  const sameBody = run.requestFingerprint === fingerprints.fingerprint || run.requestFingerprint === fingerprints.legacyFingerprint();
  if (!sameBody) return { kind: 'reused' };
  if (run.completed) return { kind: 'replay', answers: answersInOrder(run) };
  const silentFor = now.getTime() - Date.parse(run.lastRecordedAt ?? '');
  return silentFor >= PUSH_CLAIM_LEASE_MS ? { kind: 'take_over', revision: run.revision } : { kind: 'in_progress' };
}
