import { encodeCheckpoint } from './checkpoint';
import { WrongExpectedVersion } from './errors';
import type { AppendResult, ExpectedRevision, RecordedEvent } from './event-store.port';

/**
 * EventStoreDB accepts an empty append and answers with the current revision; the PostgreSQL store
 * agrees. Both adapters answer from the stream's last event (undefined: no stream), checking the
 * expectation as a real append would.
 */
export function appendNothing(stream: string, expected: ExpectedRevision, last: RecordedEvent | undefined): AppendResult {
  const current = last ? last.revision : 'no_stream';
  const holds =
    expected === 'any' ||
    (expected === 'no_stream' && current === 'no_stream') ||
    (expected === 'stream_exists' && current !== 'no_stream') ||
    expected === current;
  if (!holds) throw new WrongExpectedVersion(stream, expected, current);
  return { nextRevision: last ? last.revision : -1, position: last ? last.position : encodeCheckpoint(0n, 0n) };
}
