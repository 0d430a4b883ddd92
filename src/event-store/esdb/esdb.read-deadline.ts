/**
 * A deadline on every read the adapter makes, about progress: a read fails once the server has sent
 * nothing on it for the deadline, however long the whole read takes while events keep coming. The 6.2.1
 * client sends `readStream` and `readAll` with a gRPC deadline of Infinity whatever `deadline` the caller
 * passes (streams/readStream.js, readAll.js: `callArguments(baseOptions, { deadline: Infinity })`, and
 * that call option wins over the caller's), so a server that stops answering without closing its
 * connections — a paused process, a frozen VM — holds a read, and the HTTP request behind it, until the
 * connection dies. `readWithin` drains a read, or cancels it once it has stalled for the deadline and
 * rejects with the client's own DeadlineExceededError: "no verdict", which the api answers 503
 * STORE.UNAVAILABLE (store-unavailable.ts) and an append's settling reads as unknown.
 *
 * Why progress and not the whole call: some real reads are long and legitimate. `idem audit verify` and
 * the export's checks read every stream whole (check-links.ts, verify-history.ts, export-history.ts),
 * among them each `import-<runId>` stream, which holds an ImportRecordProcessed per record of the run
 * (import-run.audit.ts), and the whole `seal-ledger` (published-seals.ts): a pull run of 100 000 records
 * is one read of 100 000 events, which a slow or busy server may well take more than 10 s to send. A
 * whole-call deadline failed those on a server that was working; a stall deadline fails only a server
 * that has stopped. Paged reads (`readAll`, projection catch-up pages of 1 000, drive-run.ts) stay short.
 */
import { DeadlineExceededError, type ResolvedEvent } from '@eventstore/db-client';
import { integerSetting } from './esdb.connection-string';

/** The client's own default deadline for the calls it does bound (appends, admin calls). */
export const DEFAULT_READ_DEADLINE_MS = 10_000;

/** What `client.readStream` and `client.readAll` return. */
interface CancellableRead extends AsyncIterable<ResolvedEvent> {
  cancel(): Promise<void>;
}

/** Drains `read`; rejects with DeadlineExceededError once `deadlineMs` pass without an event from the server. */
export async function readWithin(read: CancellableRead, deadlineMs: number): Promise<ResolvedEvent[]> {
  let timer: NodeJS.Timeout | undefined;
  let lastProgressAt = Date.now();
  const stalled = new Promise<never>((_, reject) => {
    // One timer per stall, not one per event: when it fires after progress it waits out the rest of the deadline.
    const check = () => {
      const idleMs = Date.now() - lastProgressAt;
      if (idleMs < deadlineMs) return void (timer = setTimeout(check, deadlineMs - idleMs));
      reject(new DeadlineExceededError(undefined, `EventStoreDB sent nothing on a read for ${deadlineMs} ms`));
      // Ends the call on our side; the server, if it ever wakes, finds the stream reset.
      read.cancel().catch(() => undefined);
    };
    timer = setTimeout(check, deadlineMs);
  });
  const drained = (async () => {
    // Read to the end, not `return` from the loop: the client's dispose() waits for every call it started to finish.
    const events: ResolvedEvent[] = [];
    for await (const resolved of read) {
      events.push(resolved);
      lastProgressAt = Date.now();
    }
    return events;
  })();
  // Once the deadline has answered, the cancelled read's own ending has no one left to tell.
  drained.catch(() => undefined);
  try {
    return await Promise.race([drained, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `defaultDeadline` from an `esdb://` connection string (the client's own setting, in ms, which 6.2.1
 * honours for appends but not for reads), matched as the client matches keys: case and `-`/`_` ignored.
 */
export function defaultDeadlineOf(connectionString: string): number | undefined {
  const ms = integerSetting(connectionString, 'defaultDeadline');
  return ms !== undefined && ms > 0 ? ms : undefined;
}
