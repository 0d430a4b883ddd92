/**
 * The hash link every appended event carries in its metadata (DESIGN.md §4, §8): `previousEventHash`
 * is the hash of the event before it in its stream (null for a stream's first event). The link of
 * event N covers event N − 1 whole, its own link included, so the links of a stream form a chain:
 * rewrite, remove or swap an event and the next event's link no longer matches. What the chain alone
 * cannot show (the last events of a stream cut off, a whole stream removed) the seals over the global
 * order show.
 *
 * The event hash is sha256 of the canonical JSON (sorted keys, no whitespace) of (stream, revision,
 * id, type, data, metadata): everything that makes the event what it is and where it sits. `created`
 * is the store's clock, not a recorded fact, and is left out. Both stores return data and metadata as
 * the JSON that was written, so the hash of a read event equals the hash of the appended one.
 */
import { hash } from 'node:crypto';
import type { EventToAppend, RecordedEvent } from '../event-store/event-store.port';
import { canonicalJson } from './canonical-json';

export { canonicalJson };

export const PREVIOUS_EVENT_HASH = 'previousEventHash';

/** What the event hash covers. */
export interface HashedEvent {
  stream: string;
  revision: number;
  id: string;
  type: string;
  data: unknown;
  metadata: unknown;
}

export function eventHash({ stream, revision, id, type, data, metadata }: HashedEvent): string {
  // The one-shot `hash` (Node ≥ 20.12): no Hash object per call, about 1.5 µs less per event.
  return hash('sha256', canonicalJson({ stream, revision, id: id.toLowerCase(), type, data, metadata }), 'hex');
}

/** The stream's last event as the next append links to it: nothing yet (revision -1), or that event. */
export type StreamTip = { revision: -1 } | { revision: number; event: RecordedEvent };

/**
 * The events to append at `tip.revision + 1…`, each linked to the one before it: the first to the
 * stream's last event (or null for a new stream), every later one to the event before it in this append.
 */
export function linkEvents(stream: string, tip: StreamTip, events: EventToAppend[]): EventToAppend[] {
  let previous: string | null = 'event' in tip ? eventHash(tip.event) : null;
  return events.map((event, i) => {
    const linked = { ...event, metadata: { ...event.metadata, [PREVIOUS_EVENT_HASH]: previous } };
    // The last event's own hash is the next append's business (it hashes the tip it reads), not this one's.
    if (i < events.length - 1) previous = eventHash({ stream, revision: tip.revision + 1 + i, ...linked });
    return linked;
  });
}

export type LinkBreakKind = 'missing' | 'link_mismatch' | 'unlinked';

export interface LinkBreak {
  stream: string;
  /** The revision whose link does not hold (for `link_mismatch`: the event after the one that changed). */
  revision: number;
  kind: LinkBreakKind;
  expected: string | null;
  actual: string | null;
}

export interface LinkCheck {
  checked: number;
  /** Events written before links existed, at the start of the stream: reported, not a break. */
  unlinked: number;
  firstBreak?: LinkBreak;
}

/**
 * Checks one stream's events, in revision order as read: revisions without gaps, and every link equal
 * to the hash of the event before it. A stream may begin with events from before links existed; once
 * an event carries a link, every later one must (a link removed is a break).
 */
export function checkStreamLinks(stream: string, events: RecordedEvent[]): LinkCheck {
  let unlinked = 0;
  let linkedSeen = false;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (event.revision !== i) {
      return {
        checked: i,
        unlinked,
        firstBreak: { stream, revision: i, kind: 'missing', expected: String(i), actual: String(event.revision) },
      };
    }
    const metadata = event.metadata as Record<string, unknown>;
    if (!(PREVIOUS_EVENT_HASH in metadata)) {
      if (linkedSeen)
        return { checked: i, unlinked, firstBreak: { stream, revision: i, kind: 'unlinked', expected: 'a link', actual: null } };
      unlinked++;
      continue;
    }
    linkedSeen = true;
    const expected = i === 0 ? null : eventHash(events[i - 1]);
    const actual = (metadata[PREVIOUS_EVENT_HASH] ?? null) as string | null;
    if (actual !== expected) return { checked: i, unlinked, firstBreak: { stream, revision: i, kind: 'link_mismatch', expected, actual } };
  }
  return { checked: events.length, unlinked };
}
