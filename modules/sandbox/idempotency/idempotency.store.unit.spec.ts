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
    keys.claim('k', print('1'));

    now += IDEMPOTENCY_KEY_TTL_MS * 2;

    expect(keys.claim('k', print('1')).kind).toBe('in_flight');
  });

  it('frees a released claim but keeps a completed one', () => {
    const keys = store();
    keys.release(ticketOf(keys.claim('a', print('1'))));
    const b = ticketOf(keys.claim('b', print('1')));
    keys.complete(b, { status: 200, body: '{}', originalRequestId: 'req_1' });
    keys.release(b);

    expect(keys.claim('a', print('1')).kind).toBe('claimed');
    expect(keys.claim('b', print('1'))).toEqual({ kind: 'replay', response: { status: 200, body: '{}', originalRequestId: 'req_1' } });
  });

  it('tells another endpoint apart from other parameters', () => {
    const keys = store();
    keys.claim('k', print('1'));

    expect(keys.claim('k', print('2'))).toEqual({ kind: 'mismatch', reason: 'parameters' });
    expect(keys.claim('k', fingerprintOf('POST', '/v1/refunds', { amount: '1' }))).toEqual({ kind: 'mismatch', reason: 'endpoint' });
  });

  it('ignores a ticket from before clear(), so an old request cannot answer for a newer one', () => {
    const keys = store();
    const old = ticketOf(keys.claim('k', print('1')));
    keys.clear();
    keys.claim('k', print('1'));

    keys.complete(old, { status: 500, body: '{}', originalRequestId: 'req_old' });

    expect(keys.claim('k', print('1')).kind).toBe('in_flight');
  });
});
