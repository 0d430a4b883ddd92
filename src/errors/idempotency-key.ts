import { AppError } from './app-error';

/**
 * The optional `Idempotency-Key` header (IETF draft; Stripe style). Accepts the draft's quoted
 * sf-string form as well as the bare form vendors use.
 */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  // Node joins a header sent twice into one value with ", " (a space, which no key may hold).
  if (Array.isArray(raw) ? raw.length > 1 : /,\s/.test(raw)) {
    throw new AppError('validation', 'IDEMPOTENCY_KEY.INVALID', 'Idempotency-Key was sent more than once; send one key', {
      errors: [{ field: 'Idempotency-Key', message: 'sent more than once' }],
    });
  }
  const value = (Array.isArray(raw) ? raw[0] : raw).trim().replace(/^"(.*)"$/, '$1');
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw new AppError('validation', 'IDEMPOTENCY_KEY.INVALID', 'Idempotency-Key must be 1–255 visible ASCII characters', {
      errors: [{ field: 'Idempotency-Key', message: 'must be 1–255 visible ASCII characters' }],
    });
  }
  return value;
}

/**
 * The answer to a request whose Idempotency-Key another request is still working under (409): the
 * client is to send it again, and gets the first request's answer once that one is recorded.
 */
export const IDEMPOTENCY_KEY_IN_PROGRESS = 'IDEMPOTENCY_KEY.IN_PROGRESS';

/**
 * When to ask again after that 409, in seconds (its Retry-After): the request in progress is a batch of
 * at most 1,000 records, answered in well under a second when nothing is wrong (bench:import pushes
 * about 3,000 records/s); two seconds leave room for a loaded machine without keeping a client waiting
 * long. A request that died holding the key is taken over only after its lease (60 s): until then each
 * retry is one cheap read, answered the same way.
 */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 2;
