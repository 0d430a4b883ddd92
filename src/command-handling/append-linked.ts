/**
 * Every append Idem makes goes through here: it links the events (hash-link.ts) to the stream's last
 * event and appends them at exactly the revision the caller read. The caller usually holds that last
 * event already (the command handler's load); otherwise it is read, one event backwards. Should the
 * stream have moved on since the caller's read, the append is refused with WrongExpectedVersion as
 * any stale append is, so a link can never name an event other than the one before it.
 */
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

async function tipAt(store: EventStore, stream: string, revision: number, last: RecordedEvent | undefined): Promise<StreamTip> {
  if (revision < 0) return { revision: -1 };
  if (last?.revision === revision) return { revision, event: last };
  const [event] = await store.readStream(stream, { direction: 'backwards', fromRevision: revision, maxCount: 1 });
  // Not there: the stream is not at `revision`, and the append below is refused for it.
  return event?.revision === revision ? { revision, event } : { revision: -1 };
}
