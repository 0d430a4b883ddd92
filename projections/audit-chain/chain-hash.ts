/**
 * The hashes of the audit chain (DESIGN.md §8), pure so that the projector, `idem audit verify` and
 * the offline `verify-file` compute them with the same code:
 *
 * - event hash: sha256 of the canonical JSON (sorted keys, no spaces) of (stream, revision, id, type,
 *   data, metadata) — everything that makes an event what it is and where it sits; `created` is the
 *   store's clock and not part of the recorded facts;
 * - chain hash: sha256(previous chain hash of the same stream || event hash), so an edit, a removal or
 *   a swap inside a stream changes every later link of it;
 * - running digest: sha256(previous digest || chain hash) over the global order, which seals snapshot
 *   every N events, so a whole stream removed or events moved between streams still shows.
 *
 * Links hash raw bytes behind a one-byte tag, so a chain hash can never pass for a digest.
 */
import { createHash } from 'node:crypto';

/** The "previous" of a stream's first event and of the first digest: 32 zero bytes, in hex. */
export const GENESIS_HASH = '0'.repeat(64);

/** What the event hash covers. */
export interface HashedEvent {
  stream: string;
  revision: number;
  id: string;
  type: string;
  data: unknown;
  metadata: unknown;
}

/** JSON with every object's keys sorted and no whitespace: one text per value, whatever order keys were built in. */
export function canonicalJson(value: unknown): string {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return canonicalJson((value as { toJSON(): unknown }).toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function eventHash({ stream, revision, id, type, data, metadata }: HashedEvent): string {
  return createHash('sha256').update(canonicalJson({ stream, revision, id, type, data, metadata })).digest('hex');
}

export const chainHash = (previousChainHash: string, eventHashHex: string): string => link(0x01, previousChainHash, eventHashHex);

export const nextDigest = (previousDigest: string, chainHashHex: string): string => link(0x02, previousDigest, chainHashHex);

function link(tag: number, previous: string, next: string): string {
  return createHash('sha256')
    .update(Buffer.from([tag]))
    .update(Buffer.from(previous, 'hex'))
    .update(Buffer.from(next, 'hex'))
    .digest('hex');
}
