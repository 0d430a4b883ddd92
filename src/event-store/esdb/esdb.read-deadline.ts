/**
 * A deadline on every read the adapter makes. The 6.2.1 client sends `readStream` and `readAll` with a
 * gRPC deadline of Infinity whatever `deadline` the caller passes (streams/readStream.js, readAll.js:
 * `callArguments(baseOptions, { deadline: Infinity })`, and that call option wins over the caller's), so
 * a server that stops answering without closing its connections — a paused process, a frozen VM — holds
 * a read, and the HTTP request behind it, until the connection dies. `readWithin` drains a read within
 * its deadline or cancels it and rejects with the client's own DeadlineExceededError: "no verdict", which
 * the api answers 503 STORE.UNAVAILABLE (store-unavailable.ts) and an append's settling reads as unknown.
 *
 * The deadline covers one read call, as a gRPC deadline would: a paged `readAll` gives each page its own.
 */
import { DeadlineExceededError, type ResolvedEvent } from '@eventstore/db-client';

/** The client's own default deadline for the calls it does bound (appends, admin calls). */
export const DEFAULT_READ_DEADLINE_MS = 10_000;

/** What `client.readStream` and `client.readAll` return. */
interface CancellableRead extends AsyncIterable<ResolvedEvent> {
  cancel(): Promise<void>;
}

export async function readWithin(read: CancellableRead, deadlineMs: number): Promise<ResolvedEvent[]> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new DeadlineExceededError(undefined, `EventStoreDB did not answer a read within ${deadlineMs} ms`));
      // Ends the call on our side; the server, if it ever wakes, finds the stream reset.
      read.cancel().catch(() => undefined);
    }, deadlineMs);
  });
  const drained = (async () => {
    // Read to the end, not `return` from the loop: the client's dispose() waits for every call it started to finish.
    const events: ResolvedEvent[] = [];
    for await (const resolved of read) events.push(resolved);
    return events;
  })();
  // Once the deadline has answered, the cancelled read's own ending has no one left to tell.
  drained.catch(() => undefined);
  try {
    return await Promise.race([drained, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `defaultDeadline` from an `esdb://` connection string (the client's own setting, in ms, which 6.2.1
 * honours for appends but not for reads), matched as the client matches keys: case and `-`/`_` ignored.
 */
export function defaultDeadlineOf(connectionString: string): number | undefined {
  const query = connectionString.slice(connectionString.indexOf('?') + 1 || connectionString.length);
  for (const [key, value] of new URLSearchParams(query)) {
    if (key.trim().toLowerCase().replace(/[_-]/g, '') !== 'defaultdeadline') continue;
    const ms = Number.parseInt(value, 10);
    if (Number.isInteger(ms) && ms > 0) return ms;
  }
  return undefined;
}
