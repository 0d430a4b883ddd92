/**
 * A node that stops while calls are in flight, as the client's own suite (`extra/write-after-end.test.ts`)
 * and the server's source (`Streams.BatchAppend.cs` `BatchAppendWorker.Work`, see `stop()` in index.ts)
 * have it: a unary Append loses its connection (UnavailableError), a BatchAppend call is cancelled
 * (CancelledError). What was still in the writer's queue is lost with the node, never written
 * (`StorageWriterService`: `VNodeState.ShuttingDown` stops the queue and sets `BlockWriter`; a write whose call
 * ended is skipped by its cancellation token — append-to-log.ts).
 */
import { randomUUID } from 'node:crypto';
import { CancelledError, EventStoreDBClient, StreamNotFoundError, UnavailableError } from '@eventstore/db-client';
import { startEsdbEmulator, type EsdbEmulator } from '.';
import { APPEND_PATHS, event, failureOf, readStream, streamName, until } from './fidelity-helpers';

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

  it('never writes an append it held when it stopped, not even once it is back', async () => {
    const s = streamName();
    await client.appendToStream(s, event(), { expectedRevision: 'no_stream' });
    emulator.holdWrites();
    const appending = failureOf(client.appendToStream(s, event(randomUUID()), { expectedRevision: 0n }));
    await emulator.writesHeld(1);
    await emulator.stop();
    await appending;
    await emulator.start();
    emulator.releaseWrites(); // the hold went with the node: nothing is left to let through
    await until(() => emulator.writesInFlight() === 0);

    expect(await readStream(client, s)).toHaveLength(1);
  });

  it('fails a delete it held when it stopped with UnavailableError and never writes it', async () => {
    const s = streamName();
    await client.appendToStream(s, event(), { expectedRevision: 'no_stream' });
    emulator.holdWrites();
    const deleting = failureOf(client.deleteStream(s));
    await emulator.writesHeld(1);
    await emulator.stop();

    expect(await deleting).toBeInstanceOf(UnavailableError);
    await emulator.start();
    emulator.releaseWrites();
    expect(await readStream(client, s)).toHaveLength(1);
  });
});

describe('a held Append whose call the client gives up on (its deadline passes)', () => {
  let emulator: EsdbEmulator;
  let client: EventStoreDBClient;
  beforeEach(async () => {
    emulator = await startEsdbEmulator({ batchAppend: false });
    client = EventStoreDBClient.connectionString(emulator.connectionString);
  });
  afterEach(async () => {
    await client.dispose();
    await emulator.close();
  });

  // `Streams.Append.cs` passes the call's `context.CancellationToken` down to `StorageMessage.WritePrepares`, and
  // `StorageWriterService.Handle(WritePrepares)` returns at once when it has fired (v24.10.5). BatchAppend's deadline
  // is in-band and ends no call: such a write still lands (writer-queue.int.spec.ts).
  it('is skipped by the writer: never written, though the node never stopped', async () => {
    const s = streamName();
    emulator.holdWrites();
    const error = await failureOf(client.appendToStream(s, event(), { expectedRevision: 'no_stream', deadline: 100 }));
    expect(error.constructor.name).toBe('DeadlineExceededError');
    await until(() => emulator.stats.callsCancelled === 1); // the server has seen it too
    emulator.releaseWrites();
    await until(() => emulator.writesInFlight() === 0);

    expect(await failureOf(readStream(client, s))).toBeInstanceOf(StreamNotFoundError);
  });
});
