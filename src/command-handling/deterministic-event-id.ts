import { hash } from 'node:crypto';

/** Namespace of Idem's name-based (RFC 9562 version 5) event ids. */
const IDEM_NAMESPACE = Buffer.from('5a7c0a8e2f3b4d1e9c6b1f0e8d7a6c5b', 'hex');

/**
 * The same (stream, step, content) always yields the same UUID, so a retried command appends events
 * with the same ids and the store recognises the retry instead of writing the facts twice.
 * `step` names the command's business key and the step, e.g. `charge-requested/1/<request id>`.
 *
 * The event's type and data are part of the name. The store answers a re-append of ids it already
 * holds at those revisions with the original result and writes nothing; were the id the step's
 * alone, a "retry" carrying other facts under the same step (a client reusing its request id with
 * another amount, two runs concluding differently at one revision) would be told it was written
 * while the stream holds the first version. With the content in the id, only a true retry — the
 * same facts — is recognised as one; anything else is a conflict, re-read and decided again.
 * (Metadata stays out: a retry's recordedAt differs, and it describes the fact, not the fact itself.)
 */
export function deterministicEventId(stream: string, step: string, event: { type: string; data: object }): string {
  // One buffer and the one-shot `hash`: the same bytes as namespace, then name, through one call.
  const name = Buffer.from(`${stream}\u0000${step}\u0000${event.type}\u0000${JSON.stringify(event.data)}`);
  const digest = hash('sha1', Buffer.concat([IDEM_NAMESPACE, name]), 'buffer');
  digest[6] = (digest[6] & 0x0f) | 0x50; // version 5
  digest[8] = (digest[8] & 0x3f) | 0x80; // RFC variant
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
