import { characterCount } from './string-limits';
import { invalidRequest, type StripeErrorResponse } from './stripe-errors';

/**
 * Metadata limits, the same on every object (docs.stripe.com/api/metadata): "You can specify up to 50 keys,
 * with key names up to 40 characters long and values up to 500 characters long". The 50-key refusal's message
 * is Stripe's as users quote it (FlowFuse/flowfuse#1948, 2023: "Metadata can have up to 50 keys, but you've set
 * 51. Email us at support+metadata@stripe.com for more information."); the key and value messages are ours.
 * Lengths are characters (characterCount), as the docs count them.
 */
const MAX_KEYS = 50;
const MAX_KEY_LENGTH = 40;
const MAX_VALUE_LENGTH = 500;

export function metadataProblem(metadata: Record<string, string>): StripeErrorResponse | undefined {
  const keys = Object.keys(metadata).length;
  if (keys > MAX_KEYS) {
    return invalidRequest(
      `Metadata can have up to ${MAX_KEYS} keys, but you've set ${keys}. Email us at support+metadata@stripe.com for more information.`,
      'metadata',
    );
  }
  for (const [key, value] of Object.entries(metadata)) {
    if (characterCount(key) > MAX_KEY_LENGTH)
      return invalidRequest(`Metadata keys can be at most ${MAX_KEY_LENGTH} characters.`, `metadata[${key}]`);
    if (characterCount(value) > MAX_VALUE_LENGTH)
      return invalidRequest(`Metadata values can be at most ${MAX_VALUE_LENGTH} characters.`, `metadata[${key}]`);
  }
  return undefined;
}
