/**
 * Lines the store's events (the global order) up with the chain's entries by event id, so that each
 * event line of an export carries the hashes the chain recorded for that very event. Paired by count,
 * one event gone from the store (or one slipped in) would shift every later line onto another event's
 * hashes and number, and the file would break as `rewritten` at an innocent event instead of where
 * history was changed. The lookups are asked only where the ids differ: at a break.
 */
import type { ChainEntry } from '../../../projections/audit-chain/audit-chain.projector';
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import type { ChainBreak } from '../verify-history/chain-break';
import type { BreakLookups } from '../verify-history/check-entry';
import type { HistoryPages } from '../verify-history/history-pages';

export type Aligned =
  /** The entry and the event the store holds at its place (the same event, or one moved there). */
  | { kind: 'chained'; entry: ChainEntry; event: RecordedEvent }
  /** The entry's event is no longer stored: its number stays out of the file. */
  | { kind: 'gone'; entry: ChainEntry; problem: ChainBreak }
  /** An event the chain never recorded, stored before the entry: exported as it stands, then the entry is asked for again. */
  | { kind: 'unchained'; event: RecordedEvent }
  /** The history ends before the entry. */
  | { kind: 'end'; problem: ChainBreak };

export class HistoryAlignment {
  /** The event read for an entry whose event was gone: it is the next entry's to match. */
  private held: RecordedEvent | undefined;

  constructor(
    private readonly events: HistoryPages,
    private readonly lookups: BreakLookups,
  ) {}

  async next(entry: ChainEntry): Promise<Aligned> {
    const event = this.held ?? (await this.events.next());
    this.held = undefined;
    const at = { stream: entry.stream, revision: entry.revision, position: entry.position, expected: entry.eventHash, actual: null };
    if (!event) return { kind: 'end', problem: { ...at, kind: 'missing', detail: 'the history ends before this chained event' } };
    if (event.id === entry.eventId) return { kind: 'chained', entry, event };
    if (!(await this.lookups.eventChained(event))) return { kind: 'unchained', event };
    if (await this.lookups.entryEventStored(entry)) return { kind: 'chained', entry, event };
    this.held = event;
    return { kind: 'gone', entry, problem: { ...at, kind: 'missing', detail: `chained event ${entry.eventId} is no longer stored` } };
  }
}
