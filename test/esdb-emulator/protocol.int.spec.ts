/**
 * The rest of the wire contract (esdb.md §1.3–1.5, §3.1, §3.3, §3.6, §3.8, §4.1), through the real
 * client: capability discovery, positions, timestamps, reads of missing and deleted streams, and the
 * errors the client can only build when every trailer is there.
 */
import {
  DeadlineExceededError,
  MaxAppendSizeExceededError,
  StreamDeletedError,
  StreamNotFoundError,
  TimeoutError,
  WrongExpectedVersionError,
  jsonEvent,
} from '@eventstore/db-client';
import { APPEND_PATHS, connectedEmulator, event, failureOf, readAllEvents, readStream, streamName } from './fidelity-helpers';
import { ServerFeaturesClient, grpc, sharedPb, type FeaturesPb } from './proto';

describe('capability discovery', () => {
  const esdb = connectedEmulator();

  it("advertises exactly the methods it serves, with the real server's feature strings", async () => {
    const client = new ServerFeaturesClient(`127.0.0.1:${esdb.emulator.port}`, grpc.credentials.createInsecure());
    const supported = await new Promise<FeaturesPb.SupportedMethods>((resolve, reject) =>
      client.getSupportedMethods(new sharedPb.Empty(), (error: Error | null, answer: FeaturesPb.SupportedMethods) =>
        error ? reject(error) : resolve(answer),
      ),
    );
    client.close();
    expect(supported.getEventStoreServerVersion()).toBe('24.10.5');
    expect(supported.getMethodsList().map((m) => `${m.getServiceName()}/${m.getMethodName()}[${m.getFeaturesList().join(',')}]`)).toEqual([
      'event_store.client.streams.streams/read[position,events]',
      'event_store.client.streams.streams/append[]',
      'event_store.client.streams.streams/delete[]',
      'event_store.client.streams.streams/tombstone[]',
      'event_store.client.streams.streams/batchappend[deadline_duration]',
      'event_store.client.server_features.serverfeatures/getsupportedmethods[]',
      'event_store.client.gossip.gossip/read[]',
    ]);
  });
});

describe.each(APPEND_PATHS)('the wire contract over $path', ({ batchAppend }) => {
  const esdb = connectedEmulator({ batchAppend, maxAppendSize: 4_096, writeTimeoutMs: 300 });

  it('numbers $all with growing, non-contiguous positions where commit equals prepare', async () => {
    const stream = streamName();
    const result = await esdb.client.appendToStream(stream, [event(), event(), event()]);
    const positions = (await readStream(esdb.client, stream)).map((r) => r.event!.position!);
    expect(positions.every((p) => p.commit === p.prepare)).toBe(true);
    expect(positions[1].commit - positions[0].commit).toBeGreaterThan(1n);
    expect(positions[2].commit).toBeGreaterThan(positions[1].commit);
    expect(result.position).toEqual(positions[2]);
    const inAll = (await readAllEvents(esdb.client)).filter((r) => r.event!.streamId === stream).map((r) => r.event!.position);
    expect(inAll).toEqual(positions);
  });

  it('stamps events with the commit time, sent in .NET ticks', async () => {
    const before = Date.now();
    const stream = streamName();
    await esdb.client.appendToStream(stream, event());
    const [{ event: recorded }] = await readStream(esdb.client, stream);
    expect(recorded!.created.getTime()).toBeGreaterThanOrEqual(before);
    expect(recorded!.created.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('round-trips JSON data, custom metadata, type and id', async () => {
    const stream = streamName();
    const written = jsonEvent({ type: 'ChargeRequested', data: { amount: 1999, currency: 'EUR' }, metadata: { correlationId: 'c-1' } });
    await esdb.client.appendToStream(stream, written);
    const [{ event: read }] = await readStream(esdb.client, stream);
    expect(read).toMatchObject({
      id: written.id,
      type: 'ChargeRequested',
      data: written.data,
      metadata: written.metadata,
      isJson: true,
      streamId: stream,
      revision: 0n,
    });
  });

  it('reports a version mismatch with an empty message, as the real server does', async () => {
    const error = await failureOf(esdb.client.appendToStream(streamName(), event(), { expectedRevision: 5n }));
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error).toMatchObject({ message: '', code: undefined, expectedVersion: 5n, actualVersion: 'no_stream' });
  });

  it('refuses an append over MaxAppendSize with the limit', async () => {
    const big = jsonEvent({ type: 'Big', data: { blob: 'x'.repeat(5_000) } });
    const error = await failureOf(esdb.client.appendToStream(streamName(), big));
    expect(error).toBeInstanceOf(MaxAppendSizeExceededError);
    expect(error).toMatchObject({ maxAppendSize: 4_096 });
  });

  it('reads a stream never written, or soft-deleted, as not found, while $all keeps the deleted events', async () => {
    expect(await failureOf(readStream(esdb.client, streamName()))).toBeInstanceOf(StreamNotFoundError);
    const stream = streamName();
    await esdb.client.appendToStream(stream, [event(), event()]);
    await esdb.client.deleteStream(stream);
    expect(await failureOf(readStream(esdb.client, stream))).toMatchObject({ type: 'stream-not-found', streamName: stream });
    const all = (await readAllEvents(esdb.client)).map((r) => [r.event!.streamId, r.event!.type]);
    expect(all.filter(([s]) => s === stream)).toHaveLength(2);
    expect(all).toContainEqual([`$$${stream}`, '$metadata']);
  });

  it('reads a tombstoned stream as deleted, and shows the tombstone in $all', async () => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, event());
    await esdb.client.tombstoneStream(stream);
    expect(await failureOf(readStream(esdb.client, stream))).toBeInstanceOf(StreamDeletedError);
    expect((await readAllEvents(esdb.client)).map((r) => [r.event!.streamId, r.event!.type])).toContainEqual([stream, '$streamDeleted']);
  });

  it('refuses a delete with a stale expectation as a gRPC error with numeric versions in its trailers', async () => {
    const error = await failureOf(esdb.client.deleteStream(streamName(), { expectedRevision: 'any' }));
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error).toMatchObject({ expectedVersion: -2n, actualVersion: -1n });
  });

  it("answers a slow write that misses its budget with the path's timeout error", async () => {
    esdb.emulator.setDelay(400);
    const error = await failureOf(esdb.client.appendToStream(streamName(), event()));
    esdb.emulator.setDelay(0);
    expect(error).toBeInstanceOf(batchAppend ? DeadlineExceededError : TimeoutError);
  });
});
