import { decideClaim, PUSH_CLAIM_LEASE_MS } from './push-claim.decision';
import type { PushRun } from './push-run';

const body = { fingerprint: 'new', legacyFingerprint: () => 'as-spelled' };
const claimedAt = new Date('2026-12-02T09:00:00Z');
const run = (over: Partial<PushRun> = {}): PushRun => ({
  revision: 0,
  requestFingerprint: 'new',
  completed: false,
  answers: new Map(),
  lastRecordedAt: claimedAt.toISOString(),
  ...over,
});
const after = (ms: number) => new Date(claimedAt.getTime() + ms);

describe('decideClaim', () => {
  it('claims a key nothing was recorded under', () => {
    expect(decideClaim(run({ revision: -1, requestFingerprint: undefined }), body, claimedAt)).toEqual({ kind: 'claim' });
  });

  it('refuses another body, finished or not', () => {
    expect(decideClaim(run({ requestFingerprint: 'other' }), body, after(1))).toEqual({ kind: 'reused' });
    expect(decideClaim(run({ requestFingerprint: 'other', completed: true }), body, after(1))).toEqual({ kind: 'reused' });
    expect(decideClaim(run({ requestFingerprint: 'other' }), body, after(PUSH_CLAIM_LEASE_MS * 2))).toEqual({ kind: 'reused' });
  });

  it('replays the recorded answers in record order, under the fingerprint of today or of the body as spelled', () => {
    const answers = new Map([
      [1, { sourceId: 'b', outcome: 'imported' as const, revision: 0 }],
      [0, { sourceId: 'a', outcome: 'duplicate' as const, revision: 3 }],
    ]);
    const expected = { kind: 'replay', answers: [answers.get(0), answers.get(1)] };
    expect(decideClaim(run({ completed: true, answers }), body, after(1))).toEqual(expected);
    expect(decideClaim(run({ completed: true, answers, requestFingerprint: 'as-spelled' }), body, after(1))).toEqual(expected);
  });

  it('answers in progress within the lease, and takes the run over at its revision once the lease is over', () => {
    expect(decideClaim(run({ revision: 4 }), body, after(PUSH_CLAIM_LEASE_MS - 1))).toEqual({ kind: 'in_progress' });
    expect(decideClaim(run({ revision: 4 }), body, after(PUSH_CLAIM_LEASE_MS))).toEqual({ kind: 'take_over', revision: 4 });
  });
});
