/**
 * The hashes of the audit chain (DESIGN.md §8), pure so that the projector, `idem audit verify` and
 * the offline `verify-file` compute them with the same code:
 *
 * - event hash: the kernel's (src/command-handling/hash-link.ts), the same hash every event's
 *   `previousEventHash` link names — sha256 of the canonical JSON of (stream, revision, id lower-cased,
 *   type, data, metadata); one definition, so the chain and the links can never disagree on an event;
 * - chain hash: sha256(previous chain hash of the same stream || event hash), so an edit, a removal or
 *   a swap inside a stream changes every later link of it;
 * - running digest: sha256(previous digest || chain hash) over the global order, which seals snapshot
 *   every N events, so a whole stream removed or events moved between streams still shows.
 *
 * Links hash raw bytes behind a one-byte tag, so a chain hash can never pass for a digest.
 */
import { hash } from 'node:crypto';

export { canonicalJson, eventHash, type HashedEvent } from '../../src/command-handling/hash-link';

/** The "previous" of a stream's first event and of the first digest: 32 zero bytes, in hex. */
export const GENESIS_HASH = '0'.repeat(64);

export const chainHash = (previousChainHash: string, eventHashHex: string): string => link(0x01, previousChainHash, eventHashHex);

export const nextDigest = (previousDigest: string, chainHashHex: string): string => link(0x02, previousDigest, chainHashHex);

function link(tag: number, previous: string, next: string): string {
  return hash('sha256', Buffer.concat([Buffer.from([tag]), Buffer.from(previous, 'hex'), Buffer.from(next, 'hex')]), 'hex');
}
