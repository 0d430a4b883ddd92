/**
 * The corners of the server's write decisions, each row against its server source (v24.10.4 =
 * v24.10.5 for all of these): `ReaderIndex/IndexWriter.cs` `CheckCommit`, `ReaderIndex/BoundedCache.cs`
 * `PutRecord`, `Storage/StorageWriterService.cs` `WriteDelete` and `SoftUndeleteMetastream`,
 * `Data/Event.cs`, `Grpc/Streams.Append.cs` and `Grpc/Streams.BatchAppend.cs`. Through the real client
 * on both append paths.
 */
import { randomUUID } from 'node:crypto';
import { STREAM_EXISTS, StreamDeletedError, UnknownError, WrongExpectedVersionError, jsonEvent } from '@eventstore/db-client';
import { APPEND_PATHS, connectedEmulator, event, failureOf, readStream, streamName } from './fidelity-helpers';
import { StreamsClient, emptyPb, grpc, sharedPb, streamsPb, type GrpcJs, type StreamsPb } from './proto';

describe.each(APPEND_PATHS)('EventStoreDB decision-table corners over $path', ({ batchAppend }) => {
  const esdb = connectedEmulator({ batchAppend, maxAppendEventSize: 4_096 });
  let stream: string;
  beforeEach(() => (stream = streamName()));

  describe('when an append of zero events is behind the stream', () => {
    it('refuses an exact revision below the current one ("no data in transaction")', async () => {
      await esdb.client.appendToStream(stream, [event(), event()], { expectedRevision: 'no_stream' });
      expect(await failureOf(esdb.client.appendToStream(stream, [], { expectedRevision: 0n }))).toBeInstanceOf(WrongExpectedVersionError);
    });

    it('refuses no_stream on a stream with events', async () => {
      await esdb.client.appendToStream(stream, event(), { expectedRevision: 'no_stream' });
      expect(await failureOf(esdb.client.appendToStream(stream, [], { expectedRevision: 'no_stream' }))).toMatchObject({
        actualVersion: 0n,
      });
    });

    // `CheckCommit` answers Ok with `IsSoftDeleted` on both zero-event paths that hold, so `SoftUndeleteStream` runs.
    it.each([
      ['any', 'any' as const],
      ['its last revision', 1n],
    ])('re-creates a soft-deleted stream appended with %s, empty and numbering on', async (_what, expectedRevision) => {
      await esdb.client.appendToStream(stream, [event(), event()], { expectedRevision: 'no_stream' });
      await esdb.client.deleteStream(stream);
      expect(await esdb.client.appendToStream(stream, [], { expectedRevision })).toMatchObject({ nextExpectedRevision: 1n });
      expect(await readStream(esdb.client, stream)).toEqual([]);
      expect((await esdb.client.getStreamMetadata(stream)).metadata).toEqual({ truncateBefore: 2 });
    });

    it('re-creates a soft-deleted stream when its metastream is appended nothing (`SoftUndeleteMetastream`)', async () => {
      await esdb.client.appendToStream(stream, [event(), event()], { expectedRevision: 'no_stream' });
      await esdb.client.deleteStream(stream);
      await esdb.client.appendToStream(`$$${stream}`, [], { expectedRevision: 'any' });
      expect(await readStream(esdb.client, stream)).toEqual([]);
      expect((await esdb.client.getStreamMetadata(stream)).metadata).toEqual({ truncateBefore: 2 });
    });
  });

  describe('when an id was written twice and is appended again with any', () => {
    it('answers with the first revision the id cache recorded for it', async () => {
      const id = randomUUID();
      await esdb.client.appendToStream(stream, [event(id), event()], { expectedRevision: 'no_stream' });
      await esdb.client.appendToStream(stream, event(id), { expectedRevision: 1n }); // expected == current: no dedupe, written again at 2
      expect((await readStream(esdb.client, stream)).map((r) => r.event!.id)).toEqual([id, expect.any(String), id]);
      expect(await esdb.client.appendToStream(stream, event(id), { expectedRevision: 'any' })).toMatchObject({ nextExpectedRevision: 0n });
    });
  });

  describe('when the original of a duplicate can no longer be read', () => {
    it.each([
      ['$maxCount', { maxCount: 1 }],
      ['$tb', { truncateBefore: 1 }],
    ])('answers the duplicate without a position (%s hides it)', async (_rule, metadata) => {
      const id = randomUUID();
      await esdb.client.appendToStream(stream, event(id), { expectedRevision: 'no_stream' });
      await esdb.client.appendToStream(stream, event(), { expectedRevision: 0n });
      await esdb.client.setStreamMetadata(stream, metadata);
      const byCache = await esdb.client.appendToStream(stream, event(id), { expectedRevision: 'any' });
      const byRevision = await esdb.client.appendToStream(stream, event(id), { expectedRevision: 'no_stream' });
      for (const result of [byCache, byRevision]) expect(result).toEqual({ success: true, nextExpectedRevision: 0n, position: undefined });
    });
  });

  describe('when a stream is deleted', () => {
    it('passes no_stream on a soft-deleted stream through the same commit check as appends: it holds', async () => {
      await esdb.client.appendToStream(stream, event());
      await esdb.client.deleteStream(stream);
      await expect(esdb.client.deleteStream(stream, { expectedRevision: 'no_stream' })).resolves.toBeDefined();
      await expect(esdb.client.tombstoneStream(stream, { expectedRevision: 'no_stream' })).resolves.toBeDefined();
      // The tombstone took: the stream is now deleted for good, even for an append that expects nothing.
      expect(await failureOf(esdb.client.appendToStream(stream, event(), { expectedRevision: 'any' }))).toBeInstanceOf(StreamDeletedError);
    });

    // The 6.2 client's types omit stream_exists for tombstones, but `tombstoneStream` sends it.
    it('refuses a tombstone with stream_exists on a soft-deleted stream as deleted', async () => {
      await esdb.client.appendToStream(stream, event());
      await esdb.client.deleteStream(stream);
      expect(await failureOf(esdb.client.tombstoneStream(stream, { expectedRevision: STREAM_EXISTS as never }))).toBeInstanceOf(
        StreamDeletedError,
      );
    });

    it('writes only {"$tb": long.MaxValue} on a soft delete, and a later metadata write re-applies $tb = last + 1', async () => {
      await esdb.client.appendToStream(stream, [event(), event()]);
      await esdb.client.setStreamMetadata(stream, { maxCount: 5 });
      await esdb.client.deleteStream(stream);
      const [deleted] = await readStream(esdb.client, `$$${stream}`).then((events) => events.slice(-1));
      expect(deleted.event!.data).toEqual({ $tb: Number(2n ** 63n - 1n) }); // maxCount is gone
      await esdb.client.setStreamMetadata(stream, { maxAge: 3_600 });
      expect((await esdb.client.getStreamMetadata(stream)).metadata).toEqual({ maxAge: 3_600, truncateBefore: 2 });
    });
  });

  describe('when an event is malformed', () => {
    it.each([
      ['an empty event type', () => jsonEvent({ type: '', data: {} })],
      ['the empty event id', () => jsonEvent({ id: '00000000-0000-0000-0000-000000000000', type: 'T', data: {} })],
    ])('refuses %s and writes nothing', async (_what, make) => {
      expect(await failureOf(esdb.client.appendToStream(stream, [event(), make()]))).toBeInstanceOf(UnknownError);
      expect(await failureOf(readStream(esdb.client, stream))).toMatchObject({ type: 'stream-not-found' });
    });

    it('refuses an event above MaxAppendEventSize, naming the limit', async () => {
      const error = await failureOf(esdb.client.appendToStream(stream, jsonEvent({ type: 'Big', data: { text: 'x'.repeat(5_000) } })));
      expect(error.message).toMatch(batchAppend ? /MaximumAppendEventSizeExceeded/ : /Maximum Append Event Size of 4096/);
      expect(await failureOf(readStream(esdb.client, stream))).toMatchObject({ type: 'stream-not-found' });
    });
  });
});

/** One `Streams.Append` of one event carrying exactly the `metadata` properties given, as the client never sends it. */
function rawAppend(client: InstanceType<typeof StreamsClient>, stream: string, metadata: Record<string, string>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const call = client.append((error: Error | null) => (error ? reject(error) : resolve()));
    const options = new streamsPb.AppendReq.Options()
      .setStreamIdentifier(new sharedPb.StreamIdentifier().setStreamName(Buffer.from(stream)))
      .setAny(new emptyPb.Empty());
    const proposed = new streamsPb.AppendReq.ProposedMessage()
      .setId(new sharedPb.UUID().setString(randomUUID()))
      .setData(Buffer.from('hello'));
    for (const [key, value] of Object.entries(metadata)) proposed.getMetadataMap().set(key, value);
    call.write(new streamsPb.AppendReq().setOptions(options));
    call.write(new streamsPb.AppendReq().setProposedMessage(proposed));
    call.end();
  });
}

describe('EventStoreDB type and content-type properties, on a raw Append', () => {
  const esdb = connectedEmulator();

  // `Streams.Append.cs` checks `type`, then `content-type`, each with `RpcExceptions.RequiredMetadataPropertyMissing(name)`.
  it.each([
    ['type', { 'content-type': 'application/json' }],
    ['content-type', { type: 'Noted' }],
  ])('refuses an Append without %s, naming the missing property', async (missing, metadata) => {
    const client = new StreamsClient(`127.0.0.1:${esdb.emulator.port}`, grpc.credentials.createInsecure());
    const error = await failureOf(rawAppend(client, streamName(), metadata));
    client.close();
    expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT, details: `Required Metadata Property '${missing}' is missing` });
    expect((error as Error & { metadata: GrpcJs.Metadata }).metadata.getMap()).toMatchObject({
      exception: 'missing-required-metadata-property',
      'required-metadata-properties': 'type,content-type',
    });
  });

  it('keeps only whether a content type is application/json: text/plain reads back as application/octet-stream', async () => {
    const stream = streamName();
    const client = new StreamsClient(`127.0.0.1:${esdb.emulator.port}`, grpc.credentials.createInsecure());
    await rawAppend(client, stream, { type: 'Noted', 'content-type': 'text/plain' });
    const readOptions = new streamsPb.ReadReq.Options()
      .setStream(
        new streamsPb.ReadReq.Options.StreamOptions()
          .setStreamIdentifier(new sharedPb.StreamIdentifier().setStreamName(Buffer.from(stream)))
          .setStart(new sharedPb.Empty()),
      )
      .setCount('1')
      .setNoFilter(new sharedPb.Empty())
      .setUuidOption(new streamsPb.ReadReq.Options.UUIDOption().setString(new sharedPb.Empty()));
    const contentTypes: Array<string | undefined> = [];
    for await (const response of client.read(new streamsPb.ReadReq().setOptions(readOptions)) as AsyncIterable<StreamsPb.ReadResp>) {
      contentTypes.push(response.getEvent()?.getEvent()?.getMetadataMap().get('content-type'));
    }
    client.close();
    expect(contentTypes).toEqual(['application/octet-stream']);
  });
});
