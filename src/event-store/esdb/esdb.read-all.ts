/**
 * `readAll` with the port's options on a client that cannot filter reads (esdb.md §3.3): page through
 * `$all` and keep what matches. The server reads forwards *inclusively* from a position, so the event at
 * exactly `after` is skipped to make `after` exclusive as the port promises; backwards is already
 * exclusive. A selective filter therefore costs a scan of `$all` from `after` — keep `after` recent.
 */
import { BACKWARDS, END, FORWARDS, START, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import type { ReadAllOptions, RecordedEvent } from '../event-store.port';
import { comparePositions, positionOf, toPosition, toRecordedEvent } from './esdb.conversions';
import { eventMatcher, restrictsEvents } from './esdb.filter';
import { readWithin } from './esdb.read-deadline';

const PAGE_SIZE = 1_000;

/** `deadlineMs` is how long each page's read may go without an event (esdb.read-deadline.ts). */
export async function readAllPaged(client: EventStoreDBClient, options: ReadAllOptions, deadlineMs: number): Promise<RecordedEvent[]> {
  const backwards = options.direction === 'backwards';
  const wanted = options.maxCount ?? Number.MAX_SAFE_INTEGER;
  const filtered = restrictsEvents(options.filter);
  const matches = eventMatcher(options.filter);
  const found: RecordedEvent[] = [];
  let from: Position | undefined = options.after ? toPosition(options.after) : undefined;
  while (found.length < wanted) {
    // Unfiltered, only `$` events are dropped, so a page barely larger than what is missing usually suffices.
    const pageSize = filtered ? PAGE_SIZE : Math.min(PAGE_SIZE, wanted - found.length + 1);
    const page = await readPage(client, from ?? (backwards ? END : START), backwards, pageSize, deadlineMs);
    for (const resolved of page) {
      const position = positionOf(resolved);
      if (!position || (from && !backwards && comparePositions(position, from) === 0)) continue;
      if (matches(resolved)) found.push(toRecordedEvent(resolved));
      if (found.length === wanted) break;
    }
    if (page.length < pageSize) break;
    from = positionOf(page[page.length - 1]);
  }
  return found;
}

function readPage(
  client: EventStoreDBClient,
  fromPosition: Position | typeof START | typeof END,
  backwards: boolean,
  maxCount: number,
  deadlineMs: number,
) {
  return readWithin(client.readAll({ fromPosition, direction: backwards ? BACKWARDS : FORWARDS, maxCount }), deadlineMs);
}
