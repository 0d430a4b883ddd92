/**
 * @eventstore/db-client 6.2.1 keeps the pending answers of its batchAppend calls in one map shared by
 * every client in the process, and when any client's batchAppend call ends in an error (a client
 * closing, a connection dropping) it rejects and forgets every pending append in that map, other
 * clients' included. Their answers then arrive to no one, and the client throws a TypeError from a
 * gRPC data handler: an uncaught exception that ends the process. With the adapter's guard
 * (orphaned-answers.ts) the answer is dropped, and the append, rejected with a connection error, is
 * settled by sending it again (esdb.append.ts): every append answered, each written once.
 */
import { startEsdbEmulator, type EsdbEmulator } from '../../../test/esdb-emulator';
import { testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import { EsdbEventStore } from './esdb.event-store';

let emulator: EsdbEmulator;
beforeAll(async () => {
  emulator = await startEsdbEmulator();
});
afterAll(() => emulator.close());

it('answers every append of one store while another store closes under it, and nothing escapes as an uncaught error', async () => {
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  const survivor = EsdbEventStore.connect(emulator.connectionString);
  try {
    const category = uniqueCategory();
    for (let round = 0; round < 5; round++) {
      const closing = EsdbEventStore.connect(emulator.connectionString);
      await closing.append(`${category}-closing${round}`, [testEvent()], 'no_stream');
      const appends = Array.from({ length: 100 }, (_, i) => survivor.append(`${category}-r${round}s${i}`, [testEvent()], 'no_stream'));
      await closing.close();
      const outcomes = await Promise.allSettled(appends);
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    }
    // An answer that arrives to no one would surface here, after the appends settled.
    expect((await survivor.readAll({ maxCount: 10_000 })).filter((e) => e.stream.startsWith(`${category}-r`))).toHaveLength(500);
    expect(uncaught).toEqual([]);
    // BatchAppend stays the path, and some of the survivor's appends were indeed caught by the defect
    // (rejected, sent again): more requests than appends.
    expect(emulator.stats.appendCalls).toBe(0);
    expect(emulator.stats.batchAppendRequests).toBeGreaterThan(505);
  } finally {
    process.off('uncaughtException', onUncaught);
    await survivor.close();
  }
});
