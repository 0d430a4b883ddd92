/**
 * One append through the client, settled when its outcome is unknown. The server refuses before writing
 * when it is not ready, too busy or not the leader (`ClientMessage.NotHandled`; the client then follows
 * the leader's endpoint by itself), and a write can time out and still commit, or be cut off with the
 * connection (esdb.md §5.2). Appends ask for the leader, so that after a leader change the client moves
 * to the new leader instead of having a follower forward every write. All of these are settled the same way: the same events, the same ids, sent
 * again — never anything new. The server recognises the retry by its ids and answers with the original
 * result: durably for an exact expectation or `no_stream` (`IndexWriter.CheckCommit` compares the
 * stored ids at those revisions). `any` / `stream_exists` are recognised only through the in-memory id
 * cache, which a restart empties, so their retry first looks for the first id at the stream's tail and,
 * found at revision r, re-appends with the exact expectation r − 1: the durable check.
 *
 * A server that stops answering without closing its connections (a paused process, a frozen VM) answers
 * nothing at all: 6.2.1 sends BatchAppend with no gRPC deadline (streams/appendToStream/batchAppend.js,
 * `deadline: Infinity`; the append's deadline travels in-band for the server to apply), so an append
 * waited until the keep-alive dropped the connection (20 s by default, esdb.keepalive.ts) and its retry
 * then waited, with no timeout, for the server to come back (measured: 45 s for a 45 s pause), and the
 * HTTP request behind it with it. A live server answers every append within the client's deadline (the
 * server's in-band Timeout comes after at most `WriteTimeoutMs`, 2 s, `Streams.BatchAppend.cs`), so an
 * append with no answer `STALL_GRACE_MS` past that deadline is on a stalled connection: it fails at once as
 * DeadlineExceededError, an unknown outcome (503 STORE.UNAVAILABLE), without retries that would only wait
 * on the same connection. It may still be written if the server wakes; a retry with the same ids settles it.
 */
import {
  BACKWARDS,
  DeadlineExceededError,
  END,
  StreamDeletedError,
  StreamNotFoundError,
  type AppendExpectedRevision,
  type AppendResult,
  type EventData,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import type { ExpectedRevision } from '../event-store.port';
import { toExpectedRevision } from './esdb.conversions';
import { isOutcomeUnknown, toAppendError } from './esdb.errors';
import { DEFAULT_READ_DEADLINE_MS, readWithin } from './esdb.read-deadline';

/** How far back from the stream's end a retry looks for its first event id. */
const TAIL = 1_000;
const MAX_PAUSE_MS = 1_000;
/** Past the deadline, how long an append may still wait for its answer before its connection counts as stalled. */
export const STALL_GRACE_MS = 2_000;

export async function appendSettled(
  client: EventStoreDBClient,
  stream: string,
  events: EventData[],
  expected: ExpectedRevision,
  attempts: number,
  readDeadlineMs = DEFAULT_READ_DEADLINE_MS,
): Promise<AppendResult> {
  let expectedRevision = toExpectedRevision(expected);
  let unknown: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_PAUSE_MS, 50 * 2 ** (attempt - 2))));
      if (expected === 'any' || expected === 'stream_exists') {
        const lookup = await exactRevisionBefore(client, stream, events[0].id, readDeadlineMs);
        // Not knowing whether the id is there, a retry with `any` could write the events twice: wait instead.
        if (lookup === 'unknown') continue;
        if (lookup !== 'absent') expectedRevision = lookup;
      }
    }
    const stalled = new DeadlineExceededError(
      undefined,
      `EventStoreDB did not answer an append within ${readDeadlineMs + STALL_GRACE_MS} ms`,
    );
    try {
      // requiresLeader: a follower refuses with the leader's endpoint, and the client reconnects there.
      const appending = client.appendToStream(stream, events, { expectedRevision, requiresLeader: true });
      return await answerWithin(appending, readDeadlineMs + STALL_GRACE_MS, stalled);
    } catch (error) {
      if (error === stalled) throw error;
      if (!isOutcomeUnknown(error)) throw toAppendError(error, stream, expected);
      unknown = error;
    }
  }
  throw toAppendError(unknown, stream, expected);
}

/** `pending`'s answer, or `stalled` once `ms` pass without one (the pending append is left to end on its own). */
async function answerWithin<T>(pending: Promise<T>, ms: number, stalled: Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(stalled), ms)));
  pending.catch(() => undefined);
  try {
    return await Promise.race([pending, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** The exact expectation under which `id` was written if it is in the stream's tail, 'absent' if not, 'unknown' if the read failed. */
async function exactRevisionBefore(
  client: EventStoreDBClient,
  stream: string,
  id: string,
  readDeadlineMs: number,
): Promise<AppendExpectedRevision | 'absent' | 'unknown'> {
  let found: bigint | undefined;
  try {
    // A paused server answers nothing: past the deadline the lookup is 'unknown' and the retry waits.
    const read = client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: TAIL });
    for (const resolved of await readWithin(read, readDeadlineMs)) {
      if (found === undefined && resolved.event?.id === id) found = resolved.event.revision;
    }
  } catch (error) {
    // A tombstoned stream holds nothing that could be ours: the append then answers StreamDeleted.
    if (error instanceof StreamNotFoundError || error instanceof StreamDeletedError) return 'absent';
    if (isOutcomeUnknown(error)) return 'unknown';
    throw error;
  }
  if (found === undefined) return 'absent';
  return found === 0n ? 'no_stream' : found - 1n;
}
