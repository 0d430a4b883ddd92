/**
 * Every append Idem makes goes through here: it links the events (hash-link.ts) to the stream's last
 * event and appends them at exactly the revision the caller read. The caller usually holds that last
 * event already (the command handler's load); otherwise it is read, one event backwards. Should the
 * stream have moved on since the caller's read, the append is refused with WrongExpectedVersion as
 * any stale append is, so a link can never name an event other than the one before it.
 */
import { appendedBytes, DEFAULT_MAX_APPEND_BYTES } from '../event-store/append-validation';
import type { AppendResult, EventStore, EventToAppend, RecordedEvent } from '../event-store/event-store.port';
import { linkEvents, type StreamTip } from './hash-link';

export async function appendLinked(
  store: EventStore,
  stream: string,
  events: EventToAppend[],
  expected: number | 'no_stream',
  last?: RecordedEvent,
): Promise<{ result: AppendResult; linked: EventToAppend[] }> {
  const revision = expected === 'no_stream' ? -1 : expected;
  const linked = linkEvents(stream, await tipAt(store, stream, revision, last), events);
  return { result: await store.append(stream, linked, expected), linked };
}

/**
 * For a record of many events (an import run's per-record audit) that may not fit one append: linked
 * as one, written in consecutive appends that each fit the store's maxAppendBytes, each expecting the
 * revision the one before it left. Not atomic as a whole: a reader must know a record can stop after
 * any chunk (its last event says it is complete). A chunk's retry is recognised as the same append
 * (the event ids are the caller's); another writer in between makes the next chunk conflict.
 */
export async function appendLinkedInChunks(
  store: EventStore,
  stream: string,
  events: EventToAppend[],
  expected: number | 'no_stream',
  last?: RecordedEvent,
): Promise<AppendResult> {
  const revision = expected === 'no_stream' ? -1 : expected;
  const linked = linkEvents(stream, await tipAt(store, stream, revision, last), events);
  let result: AppendResult | undefined;
  let next = expected;
  for (const chunk of chunksOf(linked, store.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES)) {
    result = await store.append(stream, chunk, next);
    next = (next === 'no_stream' ? -1 : next) + chunk.length;
  }
  if (!result) throw new Error('appendLinkedInChunks needs at least one event');
  return result;
}

/** Consecutive runs of events that each fit `maxBytes`; an event too large on its own goes alone (and is refused). */
function chunksOf(events: EventToAppend[], maxBytes: number): EventToAppend[][] {
  const chunks: EventToAppend[][] = [];
  let size = 0;
  for (const event of events) {
    const bytes = appendedBytes(event);
    if (chunks.length === 0 || size + bytes > maxBytes) {
      chunks.push([]);
      size = 0;
    }
    chunks[chunks.length - 1].push(event);
    size += bytes;
  }
  return chunks;
}

async function tipAt(store: EventStore, stream: string, revision: number, last: RecordedEvent | undefined): Promise<StreamTip> {
  if (revision < 0) return { revision: -1 };
  if (last?.revision === revision) return { revision, event: last };
  const [event] = await store.readStream(stream, { direction: 'backwards', fromRevision: revision, maxCount: 1 });
  // Not there: the stream is not at `revision`, and the append below is refused for it.
  return event?.revision === revision ? { revision, event } : { revision: -1 };
}
