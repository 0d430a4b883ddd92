import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomSuffix(length: number): string {
  const bytes = randomBytes(length);
  let suffix = '';
  for (const byte of bytes) suffix += ALPHABET[byte % ALPHABET.length];
  return suffix;
}

/**
 * Identifiers shaped like Stripe's (`pi_` + 24 base62 characters, `req_` + 14). Random, not
 * sequential: code under test must never rely on ids being guessable or ordered.
 */
export const newPaymentIntentId = (): string => `pi_${randomSuffix(24)}`;
export const newChargeId = (): string => `ch_${randomSuffix(24)}`;
export const newEventId = (): string => `evt_${randomSuffix(24)}`;
export const newRequestId = (): string => `req_${randomSuffix(14)}`;
export const newClientSecret = (intentId: string): string => `${intentId}_secret_${randomSuffix(25)}`;
export const newCustomerId = (): string => `cus_${randomSuffix(14)}`;
export const newPaymentMethodId = (): string => `pm_${randomSuffix(24)}`;
