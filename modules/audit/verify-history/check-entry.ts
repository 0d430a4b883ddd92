/**
 * The comparison of one chained entry with the event the store holds at that place, shared by the
 * whole-history and the one-stream verify: the two walk the chain and the store side by side and
 * hand each pair here. The lookups resolve the hard case — the ids differ — into missing, extra or
 * reordered, and are asked only once, at the break.
 */
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import type { ChainEntry } from '../../../projections/audit-chain/audit-chain.projector';
import { eventHash } from '../../../projections/audit-chain/chain-hash';
import type { ChainLink, ChainReplay } from '../../../projections/audit-chain/chain-replay';
import type { ChainBreak } from './chain-break';

export interface BreakLookups {
  /** Whether the store still holds the entry's event (anywhere in its stream). */
  entryEventStored(entry: ChainEntry): Promise<boolean>;
  /** Whether the chain holds this event (anywhere in its stream). */
  eventChained(event: RecordedEvent): Promise<boolean>;
}

export type EntryCheck = { link: ChainLink; problem?: undefined } | { problem: ChainBreak };

export async function checkEntry(
  entry: ChainEntry,
  event: RecordedEvent | undefined,
  replay: ChainReplay,
  lookups: BreakLookups,
): Promise<EntryCheck> {
  const at = { stream: entry.stream, revision: entry.revision, position: entry.position };
  if (!event)
    return {
      problem: { ...at, kind: 'missing', expected: entry.eventHash, actual: null, detail: 'the history ends before this chained event' },
    };
  if (event.id !== entry.eventId) return { problem: await explainOtherEvent(entry, event, lookups) };
  if (event.stream !== entry.stream || event.revision !== entry.revision) {
    const moved = `event ${event.id} was chained at ${entry.stream}@${entry.revision} and now sits at ${event.stream}@${event.revision}`;
    return { problem: { ...at, kind: 'reordered', expected: entry.eventHash, actual: eventHash(event), detail: moved } };
  }
  const link = replay.link(event);
  if (link.eventHash !== entry.eventHash)
    return {
      problem: { ...at, kind: 'rewritten', expected: entry.eventHash, actual: link.eventHash, detail: `event ${event.id} was changed` },
    };
  if (link.chainHash !== entry.chainHash) {
    const detail = `the chain link of event ${event.id} does not follow from its stream's previous one (the chain was edited)`;
    return { problem: { ...at, kind: 'rewritten', expected: entry.chainHash, actual: link.chainHash, detail } };
  }
  return { link };
}

/** The place holds another event than the chain says: was the chained one removed, this one added, or were they moved? */
async function explainOtherEvent(entry: ChainEntry, event: RecordedEvent, lookups: BreakLookups): Promise<ChainBreak> {
  const at = { stream: entry.stream, revision: entry.revision, position: entry.position };
  if (!(await lookups.entryEventStored(entry)))
    return {
      ...at,
      kind: 'missing',
      expected: entry.eventHash,
      actual: null,
      detail: `chained event ${entry.eventId} is no longer stored`,
    };
  if (!(await lookups.eventChained(event))) {
    const detail = `event ${event.id} at ${event.stream}@${event.revision} was never chained, yet sits before the chain's end`;
    return {
      stream: event.stream,
      revision: event.revision,
      position: event.position,
      kind: 'extra',
      expected: null,
      actual: eventHash(event),
      detail,
    };
  }
  const detail = `chained event ${entry.eventId} and event ${event.id} have changed places`;
  return { ...at, kind: 'reordered', expected: entry.eventHash, actual: eventHash(event), detail };
}
