/**
 * A node that stops while calls are in flight, as the client's own suite (`extra/write-after-end.test.ts`)
 * and the server's source (`Streams.BatchAppend.cs` `BatchAppendWorker.Work`, see `stop()` in index.ts)
 * have it: a unary Append loses its connection (UnavailableError), a BatchAppend call is cancelled
 * (CancelledError).
 */
import { CancelledError, EventStoreDBClient, UnavailableError } from '@eventstore/db-client';
import { startEsdbEmulator, type EsdbEmulator } from '.';
import { APPEND_PATHS, event, failureOf, streamName } from './fidelity-helpers';

describe.each(APPEND_PATHS)('a node that stops during an append over $path', ({ path, batchAppend }) => {
  let emulator: EsdbEmulator;
  let client: EventStoreDBClient;
  beforeEach(async () => {
    emulator = await startEsdbEmulator({ batchAppend });
    client = EventStoreDBClient.connectionString(emulator.connectionString);
  });
  afterEach(async () => {
    await client.dispose();
    await emulator.close();
  });

  it(`fails the append with ${batchAppend ? 'CancelledError' : 'UnavailableError'}`, async () => {
    await client.appendToStream(streamName(), event()); // connected, BatchAppend call open
    emulator.holdWrites();
    const appending = failureOf(client.appendToStream(streamName(), event()));
    await emulator.writesHeld(1);
    await emulator.stop();
    expect(await appending).toBeInstanceOf(path === 'Append' ? UnavailableError : CancelledError);
  });
});
