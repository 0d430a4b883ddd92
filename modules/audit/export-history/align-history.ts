/**
 * Lines the store's events (the global order) up with the chain's entries by event id, so that each
 * event line of an export carries the number and hashes the chain recorded for that very event. Paired
 * by count, one event gone from the store (or slipped in, or moved) would shift every later line onto
 * another event's hashes and number, and the file would break as `rewritten` at an innocent event
 * instead of where history was changed. The lookups are asked only where the ids differ: at a break.
 */
import type { ChainEntry } from '../../../projections/audit-chain/audit-chain.projector';
import { eventHash } from '../../../projections/audit-chain/chain-hash';
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import type { ChainBreak } from '../verify-history/chain-break';
import type { HistoryPages } from '../verify-history/history-pages';

export interface AlignmentLookups {
  /** The chain's entry for this event (by its stream and id), if the chain recorded it. */
  entryOf(event: RecordedEvent): Promise<ChainEntry | undefined>;
  /** Whether the store still holds the entry's event (anywhere in its stream). */
  entryEventStored(entry: ChainEntry): Promise<boolean>;
}

export type Aligned =
  /**
   * An event to write with its entry's number and hashes. Another entry than the one asked for when
   * the event sits before its place (`problem`: the two changed places); the entry asked for is then
   * asked for again.
   */
  | { kind: 'event'; entry: ChainEntry; event: RecordedEvent; problem?: ChainBreak }
  /** The entry's event was written earlier, ahead of its place. */
  | { kind: 'written'; entry: ChainEntry }
  /** The entry's event is no longer stored: its number stays out of the file. */
  | { kind: 'gone'; entry: ChainEntry; problem: ChainBreak }
  /** An event the chain never recorded, stored before the entry: exported as it stands; the entry is asked for again. */
  | { kind: 'unchained'; event: RecordedEvent }
  /** The history ends before the entry. */
  | { kind: 'end'; problem: ChainBreak };

export class HistoryAlignment {
  /** The event read for an entry whose event was gone: it is the next entry's to match. */
  private held: RecordedEvent | undefined;
  /** Events written ahead of their place, by id: their entries have nothing left to write. */
  private readonly writtenEarly = new Set<string>();
  /** Whether the entry being matched still has its event stored, asked once per entry. */
  private stored: { eventNumber: number; stored: boolean } | undefined;

  constructor(
    private readonly events: HistoryPages,
    private readonly lookups: AlignmentLookups,
  ) {}

  async next(entry: ChainEntry): Promise<Aligned> {
    if (this.writtenEarly.delete(entry.eventId)) return { kind: 'written', entry };
    const event = this.held ?? (await this.events.next());
    this.held = undefined;
    const at = { stream: entry.stream, revision: entry.revision, position: entry.position, expected: entry.eventHash };
    if (!event)
      return { kind: 'end', problem: { ...at, actual: null, kind: 'missing', detail: 'the history ends before this chained event' } };
    if (event.id === entry.eventId) return { kind: 'event', entry, event };
    const own = await this.lookups.entryOf(event);
    if (!own) return { kind: 'unchained', event };
    if (!(await this.entryStored(entry))) {
      this.held = event;
      return {
        kind: 'gone',
        entry,
        problem: { ...at, actual: null, kind: 'missing', detail: `chained event ${entry.eventId} is no longer stored` },
      };
    }
    this.writtenEarly.add(event.id);
    const detail = `chained event ${entry.eventId} and event ${event.id} have changed places`;
    return { kind: 'event', entry: own, event, problem: { ...at, actual: eventHash(event), kind: 'reordered', detail } };
  }

  private async entryStored(entry: ChainEntry): Promise<boolean> {
    if (this.stored?.eventNumber !== entry.eventNumber)
      this.stored = { eventNumber: entry.eventNumber, stored: await this.lookups.entryEventStored(entry) };
    return this.stored.stored;
  }
}
