import { AppError } from './app-error';
import { parseIdempotencyKey } from './idempotency-key';

const refusal = (raw: string | string[]) => {
  try {
    parseIdempotencyKey(raw);
  } catch (error) {
    return error instanceof AppError ? error.message : String(error);
  }
  return 'accepted';
};

describe('parseIdempotencyKey', () => {
  it('takes the bare and the quoted form, and no header as no key', () => {
    expect(parseIdempotencyKey('order-481/pay')).toBe('order-481/pay');
    expect(parseIdempotencyKey('"a,b"')).toBe('a,b');
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
  });

  it('says so when the header was sent twice (Node joins the two with ", ")', () => {
    expect(refusal('k-1, k-2')).toBe('Idempotency-Key was sent more than once; send one key');
    expect(refusal(['k-1', 'k-2'])).toBe('Idempotency-Key was sent more than once; send one key');
  });

  it('refuses an empty, spaced, non-ASCII or over-long key', () => {
    for (const raw of ['', 'a b', 'clé', 'x'.repeat(256)])
      expect(refusal(raw)).toBe('Idempotency-Key must be 1–255 visible ASCII characters');
  });
});
