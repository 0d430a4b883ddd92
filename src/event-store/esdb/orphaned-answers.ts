/**
 * A guard around a defect of @eventstore/db-client 6.2.1's batchAppend (`streams/appendToStream/
 * batchAppend.ts`, fixed upstream in KurrentDB-Client-NodeJS #523, in no 6.x). Its pending appends
 * live in one map shared by every client in the process. When any client's BatchAppend call ends in
 * an error (the client closing, a connection dropping), the client rejects every pending append in
 * that map, other clients' and newer calls' included, and forgets them. Their answers still arrive
 * on their own live calls, and the data handler's `const [resolve, reject] = promiseBank.get(id)`
 * then throws a TypeError inside a gRPC callback: an uncaught exception that ends the process.
 *
 * The guard makes that answer what it is, an answer nobody waits for any more, and drops it. The
 * append it belonged to was already rejected with the other call's error, a connection error, which
 * the adapter treats as an unknown outcome (esdb.append.ts): it sends the same events with the same
 * ids again, and the server answers the retry with the original result. So the defect costs a retry,
 * never a wrong answer, and BatchAppend (a third of the client CPU per append of the per-call Append
 * RPC, bench:esdb) stays the path. esdb.appends-survive-other-clients.int.spec.ts shows both halves.
 */
import type { Duplex } from 'node:stream';

// The generated gRPC client the library itself requires (same resolved module, so the same class).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an internal module of the pinned client
const { StreamsClient } = require('@eventstore/db-client/generated/streams_grpc_pb') as {
  StreamsClient: { prototype: { batchAppend: (...args: unknown[]) => Duplex } };
};

const GUARDED = Symbol('idem.orphanedAnswersGuarded');

/** Installs the guard once per process; every client created before or after is covered. */
export function guardOrphanedBatchAppendAnswers(): void {
  const prototype = StreamsClient.prototype as { batchAppend: (...args: unknown[]) => Duplex; [GUARDED]?: true };
  if (prototype[GUARDED]) return;
  const batchAppend = prototype.batchAppend;
  prototype.batchAppend = function (this: unknown, ...args: unknown[]): Duplex {
    const call = batchAppend.apply(this, args);
    const on = call.on.bind(call);
    call.on = ((event: string | symbol, listener: (...values: unknown[]) => void) =>
      on(event, event === 'data' ? dropOrphanedAnswers(listener) : listener)) as Duplex['on'];
    return call;
  };
  prototype[GUARDED] = true;
}

function dropOrphanedAnswers(listener: (...values: unknown[]) => void): (...values: unknown[]) => void {
  return (...values) => {
    try {
      listener(...values);
    } catch (error) {
      // Only the forgotten-append destructuring; anything else is a real fault and goes on being thrown.
      if (!(error instanceof TypeError && /is not iterable/.test(error.message))) throw error;
    }
  };
}
