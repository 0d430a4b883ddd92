import { createHash } from 'node:crypto';

/** Namespace of Idem's name-based (RFC 9562 version 5) event ids. */
const IDEM_NAMESPACE = Buffer.from('5a7c0a8e2f3b4d1e9c6b1f0e8d7a6c5b', 'hex');

/**
 * The same (stream, key) always yields the same UUID, so a retried command appends events with the
 * same ids and the store recognises the retry instead of writing the facts twice.
 * `key` names the command's business key and the step, e.g. `charge-requested/1`.
 */
export function deterministicEventId(stream: string, key: string): string {
  const hash = createHash('sha1').update(IDEM_NAMESPACE).update(`${stream}\u0000${key}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8] & 0x3f) | 0x80; // RFC variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
