/**
 * One catch-up page of a filtered `$all` subscription, as the server reads it. Server source (tags
 * v24.10.4 and v24.10.5, unchanged between them): `src/EventStore.Core/Services/Storage/ReaderIndex/
 * AllReader.cs`, `ReadAllEventsForwardInternal` — the page starts at `pos` inclusive, comparing the
 * event's (commit, prepare) with it; it stops at `maxCount` (`ReadBatchSize` = 32, `Enumerator.cs`)
 * matching events or `maxSearchWindow` considered ones; `NextPos` is the post-position of the last
 * considered record with prepare position 0; `IsEndOfStream` is set only when the log ran out before a
 * limit did. `CurrentPos` is `pos` itself, and `Enumerator.AllSubscriptionFiltered.ReadPage` reads
 * `HeadOfTf` as (0, 0).
 */
import type { EventLog, StoredEvent } from './event-log';
import { READ_BATCH_SIZE, hiddenFromAll, type EventFilter } from './filters';
import { FIRST_RECORD_OF_TF, type TfPos } from './tf-pos';

export interface CatchUpPage {
  /** The page's events that pass the filter, in log order. */
  matched: StoredEvent[];
  considered: number;
  current: TfPos;
  next: TfPos;
  endOfStream: boolean;
  /** Index in `log.all` after the last considered event: where live delivery takes over. */
  nextIndex: number;
}

export function readCatchUpPage(log: EventLog, from: TfPos, filter: EventFilter): CatchUpPage {
  const current = from.commit < 0n ? FIRST_RECORD_OF_TF : from;
  const matched: StoredEvent[] = [];
  let index = log.indexAtOrAfterPos(current);
  let considered = 0;
  let next = current;
  let endOfStream = false;
  while (matched.length < READ_BATCH_SIZE && considered < filter.window) {
    if (index >= log.all.length) {
      endOfStream = true;
      break;
    }
    const event = log.all[index++];
    considered++;
    if (!hiddenFromAll(event) && filter.matches(event)) matched.push(event);
    next = { commit: event.postPosition, prepare: 0n };
  }
  return { matched, considered, current, next, endOfStream, nextIndex: index };
}
