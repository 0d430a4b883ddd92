import { AppError } from './app-error';

/**
 * Every id a client names in a path, query or body (business keys, run ids, stream names) is 1 to
 * `maxLength` of [A-Za-z0-9_.:-]: characters that are safe in stream names, URLs and log lines. Only the
 * length differs per kind of id; JSON schemas take the pattern's `.source`.
 */
export const idPattern = (maxLength: number): RegExp => new RegExp(`^[A-Za-z0-9_.:-]{1,${maxLength}}$`);

/** Business keys in paths and bodies (order ids, customer ids, source ids): 1–64 of [A-Za-z0-9_.:-]. */
export const BUSINESS_KEY = idPattern(64);

export function assertBusinessKey(field: string, value: string): string {
  if (!BUSINESS_KEY.test(value)) {
    throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', {
      errors: [{ field, message: `${field} must be 1–64 characters of A–Z, a–z, 0–9, _ . : -` }],
    });
  }
  return value;
}
