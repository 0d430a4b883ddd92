import { AppError } from './app-error';

/** Business keys in paths and bodies (order ids, customer ids, source ids): 1–64 of [A-Za-z0-9_.:-]. */
export const BUSINESS_KEY = /^[A-Za-z0-9_.:-]{1,64}$/;

export function assertBusinessKey(field: string, value: string): string {
  if (!BUSINESS_KEY.test(value)) {
    throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', {
      errors: [{ field, message: `${field} must be 1–64 characters of A–Z, a–z, 0–9, _ . : -` }],
    });
  }
  return value;
}
