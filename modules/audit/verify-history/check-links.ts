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

/** Every stream of the history, each read whole, in the order the streams first appear in `readAll`. */
export async function checkHistoryLinks(store: EventStore, pageSize: number): Promise<LinksReport> {
  const seen = new Set<string>();
  const history = new HistoryPages(store, pageSize);
  const total = { checked: 0, unlinked: 0 };
  for (let event = await history.next(); event; event = await history.next()) {
    if (seen.has(event.stream)) continue;
    seen.add(event.stream);
    const report = checkLinksOf(event.stream, await store.readStream(event.stream));
    total.checked += report.checked;
    total.unlinked += report.unlinked;
    if (report.firstBreak) return { ...total, firstBreak: report.firstBreak };
  }
  return total;
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
