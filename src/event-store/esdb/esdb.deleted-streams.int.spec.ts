/**
 * Streams deleted on the server behind Idem's back (esdb.md §3.6): the port has no deletes, so a
 * deleted stream reads as absent (empty), and a stream the server refuses to write for good (a
 * tombstone; `stream_exists` on a soft-deleted one) refuses an append with the typed `StreamDeleted`,
 * a 409 over HTTP — never the client's raw gRPC error. A soft-deleted stream may be written again.
 */
import { EventStoreDBClient } from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import { startEsdbEmulator, type EsdbEmulator } from '../../../test/esdb-emulator';
import { testEvent, testEvents, uniqueCategory } from '../../../test/contracts/test-events';
import { StreamDeleted } from '../errors';
import type { ExpectedRevision } from '../event-store.port';
import { EsdbEventStore } from './esdb.event-store';

const category = uniqueCategory();
const stream = () => `${category}-${randomUUID()}`;

describe.each([
  ['BatchAppend', true],
  ['Append', false],
])('EsdbEventStore on a deleted stream (appends over %s)', (_call, batchAppend) => {
  let emulator: EsdbEmulator;
  let operator: EventStoreDBClient;
  let store: EsdbEventStore;
  beforeAll(async () => {
    emulator = await startEsdbEmulator({ batchAppend });
    operator = EventStoreDBClient.connectionString(emulator.connectionString);
    store = EsdbEventStore.connect(emulator.connectionString);
  });
  afterAll(async () => {
    await store?.close();
    await operator?.dispose();
    await emulator?.close();
  });

  async function writtenThen(deletion: 'deleteStream' | 'tombstoneStream'): Promise<string> {
    const name = stream();
    await store.append(name, testEvents(2), 'no_stream');
    await operator[deletion](name);
    return name;
  }

  describe('when the stream was tombstoned', () => {
    it('reads it as empty, forwards and backwards', async () => {
      const name = await writtenThen('tombstoneStream');
      expect(await store.readStream(name)).toEqual([]);
      expect(await store.readStream(name, { direction: 'backwards', maxCount: 1 })).toEqual([]);
    });

    it.each<ExpectedRevision>(['any', 'no_stream', 'stream_exists', 1])(
      'refuses an append expecting %s with StreamDeleted',
      async (expected) => {
        const name = await writtenThen('tombstoneStream');
        const refusal = store.append(name, [testEvent()], expected);
        await expect(refusal).rejects.toBeInstanceOf(StreamDeleted);
        await expect(refusal).rejects.toMatchObject({ kind: 'conflict', code: 'EVENT_STORE.STREAM_DELETED', stream: name });
      },
    );
  });

  describe('when the stream was soft-deleted', () => {
    it('reads it as empty and refuses stream_exists with StreamDeleted', async () => {
      const name = await writtenThen('deleteStream');
      expect(await store.readStream(name)).toEqual([]);
      await expect(store.append(name, [testEvent()], 'stream_exists')).rejects.toBeInstanceOf(StreamDeleted);
    });

    it('lets it be written again from where it ended', async () => {
      const name = await writtenThen('deleteStream');
      expect(await store.append(name, [testEvent()], 'any')).toMatchObject({ nextRevision: 2 });
      expect((await store.readStream(name)).map((event) => event.revision)).toEqual([2]);
    });
  });
});
