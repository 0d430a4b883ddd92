/**
 * The server's per-event size limit (`MaxAppendEventSize`, 24.10+) reaches the 6.x client as an
 * UnknownError on both append paths (`Grpc/Status.cs` in-band on BatchAppend, `Grpc/RpcExceptions.cs`
 * INVALID_ARGUMENT on Append); the adapter still reports it as the port's InvalidAppend.
 */
import { startEsdbEmulator, type EsdbEmulator } from '../../../test/esdb-emulator';
import { testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import { InvalidAppend } from '../errors';
import { EsdbEventStore } from './esdb.event-store';

describe.each([
  ['BatchAppend', true],
  ['Append', false],
])('EsdbEventStore on a server with a per-event size limit, over %s', (_path, batchAppend) => {
  let emulator: EsdbEmulator;
  let store: EsdbEventStore;

  beforeAll(async () => {
    emulator = await startEsdbEmulator({ batchAppend, maxAppendEventSize: 1_024 });
    store = EsdbEventStore.connect(emulator.connectionString);
  });

  afterAll(async () => {
    await store.close();
    await emulator.close();
  });

  it('reports an event above the limit as InvalidAppend EVENT_TOO_LARGE and writes nothing', async () => {
    const stream = `${uniqueCategory()}-1`;
    const error = await store.append(stream, [testEvent('Big', { blob: 'x'.repeat(2_000) })], 'no_stream').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidAppend);
    expect(error).toMatchObject({ code: 'EVENT_STORE.INVALID_EVENT_TOO_LARGE' });
    expect(await store.readStream(stream)).toEqual([]);
  });
});
