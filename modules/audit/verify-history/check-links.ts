/**
 * The second check of `verify`: the hash links every event carries in its metadata
 * (`previousEventHash`, src/command-handling/hash-link.ts), stream by stream, with the kernel's own
 * `checkStreamLinks`. They live in the event store itself, beside the events, so they hold even where
 * the chain tables were rewritten to match an edit. Events from before links existed, at the start
 * of a stream, are counted as unlinked and are not a break.
 */
import { checkStreamLinks, type LinkBreak } from '../../../src/command-handling/hash-link';
import type { EventStore, RecordedEvent } from '../../../src/event-store/event-store.port';
import type { ChainBreak } from './chain-break';
import { HistoryPages } from './history-pages';

export interface LinksReport {
  /** Events whose link was checked (or, before links existed, counted) before the first break. */
  checked: number;
  unlinked: number;
  firstBreak?: ChainBreak;
}

export function checkLinksOf(stream: string, events: RecordedEvent[]): LinksReport {
  const { checked, unlinked, firstBreak } = checkStreamLinks(stream, events);
  return firstBreak ? { checked, unlinked, firstBreak: toChainBreak(firstBreak, events) } : { checked, unlinked };
}

/**
 * Every stream of the history, each read whole, in the order the streams first appear in `readAll`. A
 * stream that reads fewer events than the global order holds of it was removed or cut short: on
 * EventStoreDB a deleted stream reads as empty while its events stay in `$all` until a scavenge, so
 * its links alone (none to check) would pass it. `signal` stops the walk between pages and between streams,
 * rejecting with its reason.
 */
export async function checkHistoryLinks(store: EventStore, pageSize: number, signal?: AbortSignal): Promise<LinksReport> {
  const total = { checked: 0, unlinked: 0 };
  for (const [stream, inHistory] of await streamsInHistory(store, pageSize, signal)) {
    // Each stream is read whole: between two of them is the safe point to stop at (Ctrl+C, a client gone).
    signal?.throwIfAborted();
    const events = await store.readStream(stream);
    const report = checkLinksOf(stream, events);
    total.checked += report.checked;
    total.unlinked += report.unlinked;
    if (report.firstBreak) return { ...total, firstBreak: report.firstBreak };
    if (events.length < inHistory.events) return { ...total, firstBreak: streamCutShort(stream, events, inHistory) };
  }
  return total;
}

/** What the global order holds of one stream: how many events, and where the first sits (kept per stream, so not the event). */
interface StreamInHistory {
  events: number;
  first: Pick<RecordedEvent, 'revision' | 'position'>;
}

async function streamsInHistory(store: EventStore, pageSize: number, signal?: AbortSignal): Promise<Map<string, StreamInHistory>> {
  const streams = new Map<string, StreamInHistory>();
  const history = new HistoryPages(store, pageSize, signal);
  for (let event = await history.next(); event; event = await history.next()) {
    const seen = streams.get(event.stream);
    if (seen) seen.events += 1;
    else streams.set(event.stream, { events: 1, first: { revision: event.revision, position: event.position } });
  }
  return streams;
}

/** Its links hold, so the stream lost its end (all of it, when it reads empty). */
function streamCutShort(stream: string, events: RecordedEvent[], inHistory: StreamInHistory): ChainBreak {
  const detail = `${stream} reads ${events.length} of its ${inHistory.events} events in the global order: it was removed or cut short`;
  const at = events.length ? { revision: events.length, position: null } : inHistory.first;
  return { stream, ...at, kind: 'missing', expected: String(inHistory.events), actual: String(events.length), detail };
}

const DETAILS: Record<LinkBreak['kind'], (stream: string, revision: number) => string> = {
  link_mismatch: (stream, revision) =>
    `the link of ${stream}@${revision} does not name the event before it: that event was changed, removed or moved`,
  unlinked: (stream, revision) => `${stream}@${revision} carries no link although the events before it do: its link was removed`,
  missing: (stream, revision) => `${stream} skips revision ${revision}: an event was removed`,
};

function toChainBreak({ stream, revision, kind, expected, actual }: LinkBreak, events: RecordedEvent[]): ChainBreak {
  const position = events.find((event) => event.revision >= revision)?.position ?? null;
  return { stream, revision, position, kind, expected, actual, detail: DETAILS[kind](stream, revision) };
}
