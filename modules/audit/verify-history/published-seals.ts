/**
 * The seals published as history (`LedgerSealed` in `seal-ledger`), as `verify` checks them against
 * the digest it recomputes at each one's place. Unlike a row of audit_seals they sit in the event
 * store, linked to each other and chained and sealed in turn: rewriting sealed history unseen means
 * rewriting this stream and its links as well, not only the chain tables.
 */
import type { EventStore, RecordedEvent } from '../../../src/event-store/event-store.port';
import type { ChainEntry, Seal } from '../../../projections/audit-chain/audit-chain.projector';
import { SEAL_STREAM, type LedgerSealed } from '../ledger-sealed.events';
import type { ChainBreak } from './chain-break';

export interface PublishedSeal extends Seal {
  revision: number;
}

export const isPublishedSeal = (event: RecordedEvent) => event.stream === SEAL_STREAM && event.type === 'LedgerSealed';

export async function readPublishedSeals(store: EventStore): Promise<PublishedSeal[]> {
  const events = await store.readStream(SEAL_STREAM);
  return events.filter(isPublishedSeal).map((event) => {
    const { eventsSealed, position, digest } = event.data as LedgerSealed['data'];
    return { eventsSealed, position, digest, revision: event.revision };
  });
}

export function publishedSealMismatch(entry: ChainEntry, seal: PublishedSeal, actual: string): ChainBreak {
  // A digest cannot say which side changed: the history it covers, or the seal event itself.
  const detail =
    `${SEAL_STREAM}@${seal.revision} sealed ${seal.eventsSealed} events at ${seal.position} with another digest than the ` +
    'history up to there gives: that history or this seal was changed';
  const at = { stream: entry.stream, revision: entry.revision, position: entry.position };
  return { ...at, kind: 'seal_mismatch', expected: seal.digest, actual, detail };
}

/**
 * A published seal whose row audit_seals no longer holds: the history and the seal agree, the row
 * was deleted (the table's triggers refuse that: they were dropped). `verify` passed this by, while the
 * export, which writes its seal lines from audit_seals, found the seal event without its line.
 */
export function sealRowGone(entry: ChainEntry, seal: PublishedSeal): ChainBreak {
  const detail =
    `the seal after event ${seal.eventsSealed}, published as ${SEAL_STREAM}@${seal.revision}, is gone from audit_seals: ` +
    'seal rows were removed (the history up to it matches the published seal)';
  const at = { stream: entry.stream, revision: entry.revision, position: entry.position };
  return { ...at, kind: 'missing', expected: seal.digest, actual: null, detail };
}

export function strandedPublishedSeal(seal: PublishedSeal): ChainBreak {
  const detail = `${SEAL_STREAM}@${seal.revision} seals event ${seal.eventsSealed}, which the chain does not reach in order`;
  return {
    stream: SEAL_STREAM,
    revision: seal.revision,
    position: null,
    kind: 'seal_mismatch',
    expected: seal.digest,
    actual: null,
    detail,
  };
}

/**
 * The chain walk met more `LedgerSealed` events than `seal-ledger` reads: the seals it no longer holds
 * would go unchecked (on EventStoreDB a deleted stream reads as empty while `$all` keeps its events).
 * The stream is read again first: seals published since the first read are chained as well.
 * Returns the first chained seal event the stream no longer holds, if any.
 */
export async function unreadablePublishedSeal(store: EventStore, chained: ChainEntry[]): Promise<ChainBreak | undefined> {
  const readable = new Set((await readPublishedSeals(store)).map((seal) => seal.revision));
  const gone = chained.find((entry) => !readable.has(entry.revision));
  if (!gone) return undefined;
  const detail = `${SEAL_STREAM}@${gone.revision} was chained but ${SEAL_STREAM} no longer holds it: published seals were removed`;
  return {
    stream: gone.stream,
    revision: gone.revision,
    position: gone.position,
    kind: 'missing',
    expected: gone.eventHash,
    actual: null,
    detail,
  };
}
