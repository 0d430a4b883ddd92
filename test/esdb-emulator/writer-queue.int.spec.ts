/**
 * Deletes and held writes go through the server's one writer queue, behind the request manager's timer. Server
 * source (kurrent-io/KurrentDB v24.10.5): `StorageWriterService.Handle(WriteDelete)` runs `IndexWriter.CheckCommit`
 * against `GetStreamLastEventNumber`, which reads pre-committed writes (`_streamVersions`) before the index, and
 * pre-commits the delete behind them, indexed in log order; `RequestManagementService` starts a write's manager,
 * and with it the `WriteTimeoutMs` timer (`RequestManagerBase.Start`), before the writer takes the write.
 */
import { randomUUID } from 'node:crypto';
import { StreamDeletedError, StreamNotFoundError, WrongExpectedVersionError } from '@eventstore/db-client';
import { APPEND_PATHS, connectedEmulator, event, failureOf, readAllEvents, readStream, streamName, until } from './fidelity-helpers';

describe.each(APPEND_PATHS)('the writer queue over $path', ({ batchAppend }) => {
  describe('a delete while an append to the stream is pre-committed, not yet indexed', () => {
    // The index lags 300 ms behind the writer; the write budget (2 s) outlasts it.
    const esdb = connectedEmulator({ batchAppend });
    let s: string;
    let inFlight: Promise<unknown>;
    const a = randomUUID();

    /** `s` holds revision 0; `a` is on its way in at revision 1. */
    beforeEach(async () => {
      s = streamName();
      await esdb.client.appendToStream(s, event(), { expectedRevision: 'no_stream' });
      esdb.emulator.setDelay(300);
      inFlight = esdb.client.appendToStream(s, event(a), { expectedRevision: 0n });
      await until(() => esdb.emulator.writesInFlight() > 0);
      esdb.emulator.setDelay(0);
    });

    afterEach(async () => {
      await inFlight;
    });

    it('refuses a delete expecting the indexed revision with the revision the write in flight reached', async () => {
      const error = await failureOf(esdb.client.deleteStream(s, { expectedRevision: 0n }));

      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect(error).toMatchObject({ expectedVersion: 0n, actualVersion: 1n });
    });

    it('deletes expecting the revision in flight, after the write lands', async () => {
      await esdb.client.deleteStream(s, { expectedRevision: 1n });

      expect(await inFlight).toMatchObject({ nextExpectedRevision: 1n });
      expect(await failureOf(readStream(esdb.client, s))).toBeInstanceOf(StreamNotFoundError);
    });

    it('writes a tombstone after the write in flight, and refuses a write decided after the tombstone as deleted', async () => {
      // The writer takes them in arrival order: the tombstone, then the later write.
      esdb.emulator.holdWrites();
      const tombstone = esdb.client.tombstoneStream(s);
      await esdb.emulator.writesHeld(1);
      const later = failureOf(esdb.client.appendToStream(s, event(), { expectedRevision: 'any' }));
      await esdb.emulator.writesHeld(2);
      esdb.emulator.releaseWrites();

      const { position } = await tombstone;
      const landed = (await readAllEvents(esdb.client)).find((e) => e.event?.id === a);
      expect(landed!.event!.position!.commit).toBeLessThan(position!.commit);
      expect(await later).toBeInstanceOf(StreamDeletedError);
    });
  });

  describe('a write decided while a soft delete of its stream is pre-committed', () => {
    const esdb = connectedEmulator({ batchAppend });
    afterEach(() => esdb.emulator.setDelay(0));

    it('refuses stream_exists as deleted: the pending soft delete counts (`IndexWriter.IsSoftDeleted` reads `_streamRawMetas`)', async () => {
      const s = streamName();
      await esdb.client.appendToStream(s, event(), { expectedRevision: 'no_stream' });
      esdb.emulator.holdWrites();
      const deleted = esdb.client.deleteStream(s);
      await esdb.emulator.writesHeld(1);
      const later = failureOf(esdb.client.appendToStream(s, event(), { expectedRevision: 'stream_exists' }));
      await esdb.emulator.writesHeld(2);
      // Released together: the delete is decided first and waits 300 ms for the index; the append is decided meanwhile.
      esdb.emulator.setDelay(300);
      esdb.emulator.releaseWrites();

      expect(await later).toBeInstanceOf(StreamDeletedError);
      await deleted;
    });

    it('takes stream_exists after a write that re-creates the stream, itself still pre-committed (`SoftUndeleteStream`)', async () => {
      const s = streamName();
      const [a, b] = [randomUUID(), randomUUID()];
      await esdb.client.appendToStream(s, event(), { expectedRevision: 'no_stream' });
      esdb.emulator.holdWrites();
      const deleted = esdb.client.deleteStream(s);
      await esdb.emulator.writesHeld(1);
      const recreated = esdb.client.appendToStream(s, event(a), { expectedRevision: 'any' });
      await esdb.emulator.writesHeld(2);
      const later = esdb.client.appendToStream(s, event(b), { expectedRevision: 'stream_exists' });
      await esdb.emulator.writesHeld(3);
      esdb.emulator.setDelay(300);
      esdb.emulator.releaseWrites();

      await Promise.all([deleted, recreated, later]);
      expect((await readStream(esdb.client, s)).map((r) => r.event!.id)).toEqual([a, b]);
    });
  });

  describe('a write held in the writer queue', () => {
    const esdb = connectedEmulator({ batchAppend, writeTimeoutMs: 500 });
    afterEach(() => esdb.emulator.releaseWrites());

    it('times out from its arrival while still held, and lands when the writer takes it', async () => {
      const s = streamName();
      const id = randomUUID();
      esdb.emulator.holdWrites();
      const error = await failureOf(esdb.client.appendToStream(s, event(id), { expectedRevision: 'no_stream' }));

      expect(error.constructor.name).toBe(batchAppend ? 'DeadlineExceededError' : 'TimeoutError');
      // Append: `RpcExceptions.Timeout(completed.Message)` with `RequestManagerBase`'s message; BatchAppend's
      // in-band `Status.Timeout` carries its own.
      if (!batchAppend) expect(error.message).toContain('Operation timed out: Commit phase timeout.');
      expect(esdb.emulator.writesInFlight()).toBe(1);
      esdb.emulator.releaseWrites();
      await until(() => esdb.emulator.writesInFlight() === 0);
      expect((await readStream(esdb.client, s)).map((r) => r.event!.id)).toEqual([id]);
    });
  });
});
