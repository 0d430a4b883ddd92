import { randomUUID } from 'node:crypto';
import { decideAbandon, PUSH_ABANDONED_AFTER_MS } from './abandon-push.decision';
import { PUSH_CLAIM_LEASE_MS } from './push-claim.decision';
import type { PushRun } from './push-run';

const lastAt = new Date('2026-12-02T09:00:00Z');
const after = (ms: number) => new Date(lastAt.getTime() + ms);
const keylessId = `push.${randomUUID()}`;
const keyedId = 'push.0123456789abcdef0123456789abcdef';
const answer = { sourceId: 'a', outcome: 'imported' as const, revision: 0 };
const run = (over: Partial<PushRun> = {}): PushRun => ({
  revision: 247,
  requestFingerprint: 'f',
  completed: false,
  answers: new Map(Array.from({ length: 247 }, (_, i) => [i, answer])),
  lastRecordedAt: lastAt.toISOString(),
  idempotencyKey: false,
  records: 1000,
  ...over,
});
const long = after(PUSH_ABANDONED_AFTER_MS + 1);

describe('decideAbandon', () => {
  describe('a run whose request had no Idempotency-Key', () => {
    it('is ended at its revision once silent for longer than the lease and the margin, with a reason that says what to do', () => {
      const decision = decideAbandon(keylessId, run(), long);
      expect(decision).toEqual({
        kind: 'end',
        revision: 247,
        event: { type: 'ImportRunFailed', data: { runId: keylessId, error: expect.any(String) } },
      });
      const reason = decision.kind === 'end' ? decision.event.data.error : '';
      expect(reason).toMatch(/^abandoned: the request that pushed this batch stopped after 247 of 1000 records were answered/);
      expect(reason).toContain('no Idempotency-Key');
      expect(reason).toContain('send the batch again');
    });

    it('is left while it may still be written: within the lease and the margin', () => {
      expect(PUSH_ABANDONED_AFTER_MS).toBeGreaterThan(PUSH_CLAIM_LEASE_MS);
      expect(decideAbandon(keylessId, run(), after(PUSH_ABANDONED_AFTER_MS))).toEqual({ kind: 'leave', why: 'recent' });
      expect(decideAbandon(keylessId, run({ lastRecordedAt: 'not a time' }), long)).toEqual({ kind: 'leave', why: 'recent' });
    });

    it('is told by its run id when its claim was recorded before it said so, and then names no batch size', () => {
      const decision = decideAbandon(keylessId, run({ idempotencyKey: undefined, records: undefined }), long);
      expect(decision.kind === 'end' && decision.event.data.error).toMatch(/stopped after 247 records were answered/);
      expect(decideAbandon(keyedId, run({ idempotencyKey: undefined, records: undefined }), long)).toEqual({ kind: 'leave', why: 'keyed' });
    });

    it('is left once it ended, or when nothing was claimed', () => {
      expect(decideAbandon(keylessId, run({ completed: true }), long)).toEqual({ kind: 'leave', why: 'ended' });
      expect(decideAbandon(keylessId, run({ failed: true }), long)).toEqual({ kind: 'leave', why: 'ended' });
      expect(decideAbandon(keylessId, run({ revision: -1 }), long)).toEqual({ kind: 'leave', why: 'not_claimed' });
    });
  });

  it('leaves a run with an Idempotency-Key however long it was silent: a retry may still take it over', () => {
    expect(decideAbandon(keyedId, run({ idempotencyKey: true }), after(PUSH_ABANDONED_AFTER_MS * 100))).toEqual({
      kind: 'leave',
      why: 'keyed',
    });
    expect(decideAbandon(keylessId, run({ idempotencyKey: true }), long)).toEqual({ kind: 'leave', why: 'keyed' });
  });
});
