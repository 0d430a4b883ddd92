/**
 * The catch-up of a stream subscription. Server source (kurrent-io/KurrentDB v24.10.5),
 * `src/EventStore.Core/Services/Transport/Enumerators/Enumerator.StreamSubscription.cs`, `CatchUp`: it is a
 * stream read, page after page (`ReadPage`: `ClientMessage.ReadStreamEventsForward` from checkpoint + 1,
 * `ReadBatchSize` events), so it sends what a read of the stream returns (`IndexReader.ReadStreamEventsForwardInternal`,
 * read.rpc.ts): `StreamDeleted` for a tombstoned stream ends the subscription
 * (`ReadResponseException.StreamDeleted`); `NoStream` — never written, or soft-deleted — ends the catch-up with
 * nothing sent; events below `$tb` or `$maxCount`, or older than `$maxAge`, are never sent. Each page is read
 * against the stream and its metadata as they are when it is read.
 */
import { LONG_MAX, type EventLog, type StoredEvent } from './event-log';
import { READ_BATCH_SIZE } from './filters';

export type StreamCatchUpEnd =
  | { kind: 'caught-up'; after: bigint; nextIndex: number }
  /** The read answered StreamDeleted. */
  | { kind: 'deleted' }
  /** The call is gone. */
  | { kind: 'gone' };

/** Sends the stream's readable events after revision `after` (−1: from the start), as `CatchUp` does. */
export async function runStreamCatchUp(
  log: EventLog,
  stream: string,
  after: bigint,
  sendEvent: (event: StoredEvent) => Promise<boolean>,
): Promise<StreamCatchUpEnd> {
  for (;;) {
    // What the page read sees, all at once: live delivery takes over after everything in the log now.
    const nextIndex = log.all.length;
    if (log.lastRevision(stream) === LONG_MAX) return { kind: 'deleted' };
    const page = (log.readableEvents(stream) ?? []).filter((e) => e.revision > after).slice(0, READ_BATCH_SIZE);
    for (const event of page) {
      if (!(await sendEvent(event))) return { kind: 'gone' };
      after = event.revision;
    }
    if (page.length < READ_BATCH_SIZE) return { kind: 'caught-up', after, nextIndex };
  }
}
