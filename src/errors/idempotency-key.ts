import { AppError } from './app-error';

/**
 * The optional `Idempotency-Key` header (IETF draft; Stripe style). Accepts the draft's quoted
 * sf-string form as well as the bare form vendors use.
 */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = (Array.isArray(raw) ? raw[0] : raw).trim().replace(/^"(.*)"$/, '$1');
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw new AppError('validation', 'IDEMPOTENCY_KEY.INVALID', 'Idempotency-Key must be 1–255 visible ASCII characters', {
      errors: [{ field: 'Idempotency-Key', message: 'must be 1–255 visible ASCII characters' }],
    });
  }
  return value;
}
