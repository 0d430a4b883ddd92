import { fingerprintOf } from './fingerprint';
import { IDEMPOTENCY_KEY_TTL_MS, IdempotencyStore, type ClaimTicket } from './idempotency.store';

describe('IdempotencyStore', () => {
  let now = 0;
  const store = () => new IdempotencyStore(() => now);
  const print = (amount: string) => fingerprintOf('POST', '/v1/payment_intents', { amount });
  const ticketOf = (claim: ReturnType<IdempotencyStore['claim']>): ClaimTicket => {
    if (claim.kind !== 'claimed') throw new Error(`expected a claim, got ${claim.kind}`);
    return claim.ticket;
  };
  beforeEach(() => {
    now = 1_000;
  });

  it('never expires a claim that is still running, however old', () => {
    const keys = store();
    keys.claim('acct_1', 'k', print('1'), 'req_first');

    now += IDEMPOTENCY_KEY_TTL_MS * 2;

    expect(keys.claim('acct_1', 'k', print('1'), 'req_first').kind).toBe('in_flight');
  });

  it('frees a released claim but keeps a completed one', () => {
    const keys = store();
    keys.release(ticketOf(keys.claim('acct_1', 'a', print('1'), 'req_first')));
    const b = ticketOf(keys.claim('acct_1', 'b', print('1'), 'req_first'));
    keys.complete(b, { status: 200, body: '{}', originalRequestId: 'req_1' });
    keys.release(b);

    expect(keys.claim('acct_1', 'a', print('1'), 'req_first').kind).toBe('claimed');
    expect(keys.claim('acct_1', 'b', print('1'), 'req_first')).toEqual({
      kind: 'replay',
      response: { status: 200, body: '{}', originalRequestId: 'req_1' },
    });
  });

  it('tells another endpoint apart from other parameters', () => {
    const keys = store();
    keys.claim('acct_1', 'k', print('1'), 'req_first');

    expect(keys.claim('acct_1', 'k', print('2'), 'req_first')).toEqual({
      kind: 'mismatch',
      reason: 'parameters',
      originalRequestId: 'req_first',
    });
    expect(keys.claim('acct_1', 'k', fingerprintOf('POST', '/v1/refunds', { amount: '1' }), 'req_first')).toEqual({
      kind: 'mismatch',
      reason: 'endpoint',
      originalRequestId: 'req_first',
    });
  });

  it('ignores a ticket from before clear(), so an old request cannot answer for a newer one', () => {
    const keys = store();
    const old = ticketOf(keys.claim('acct_1', 'k', print('1'), 'req_first'));
    keys.clear();
    keys.claim('acct_1', 'k', print('1'), 'req_first');

    keys.complete(old, { status: 500, body: '{}', originalRequestId: 'req_old' });

    expect(keys.claim('acct_1', 'k', print('1'), 'req_first').kind).toBe('in_flight');
  });

  it('keeps keys per account: the same key from another account is a new request', () => {
    const keys = store();
    keys.complete(ticketOf(keys.claim('acct_1', 'k', print('1'), 'req_a')), { status: 200, body: '{}', originalRequestId: 'req_a' });

    expect(keys.claim('acct_2', 'k', print('2'), 'req_b').kind).toBe('claimed');
    expect(keys.claim('acct_1', 'k', print('2'), 'req_c')).toEqual({ kind: 'mismatch', reason: 'parameters', originalRequestId: 'req_a' });
  });
});
