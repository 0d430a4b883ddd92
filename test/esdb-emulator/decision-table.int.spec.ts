/**
 * esdb.md §1.2: every row of the server's consequence table, through the real client on both append
 * paths. A row that passes here behaves the same against a real EventStoreDB.
 */
import { StreamDeletedError, WrongExpectedVersionError } from '@eventstore/db-client';
import { APPEND_PATHS, connectedEmulator, event, failureOf, readStream, streamName } from './fidelity-helpers';

describe.each(APPEND_PATHS)('EventStoreDB decision table over $path', ({ batchAppend }) => {
  const esdb = connectedEmulator({ batchAppend });

  it('refuses no_stream on a stream with events, reporting expected no_stream and the last revision', async () => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, [event(), event()], { expectedRevision: 'no_stream' });
    const error = await failureOf(esdb.client.appendToStream(stream, event(), { expectedRevision: 'no_stream' }));
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error).toMatchObject({
      type: 'wrong-expected-version',
      streamName: stream,
      expectedVersion: 'no_stream',
      actualVersion: 1n,
      message: '',
    });
  });

  it('accepts no_stream on a stream that has only metadata', async () => {
    const stream = streamName();
    await esdb.client.setStreamMetadata(stream, { maxCount: 10 });
    const result = await esdb.client.appendToStream(stream, event(), { expectedRevision: 'no_stream' });
    expect(result.nextExpectedRevision).toBe(0n);
  });

  it('accepts stream_exists on a stream that has only metadata (its metastream has events)', async () => {
    const stream = streamName();
    await esdb.client.setStreamMetadata(stream, { maxCount: 10 });
    const result = await esdb.client.appendToStream(stream, event(), { expectedRevision: 'stream_exists' });
    expect(result.nextExpectedRevision).toBe(0n);
  });

  it('refuses stream_exists on a stream never written, reporting no_stream', async () => {
    const stream = streamName();
    const error = await failureOf(esdb.client.appendToStream(stream, event(), { expectedRevision: 'stream_exists' }));
    expect(error).toMatchObject({ streamName: stream, expectedVersion: 'stream_exists', actualVersion: 'no_stream' });
  });

  it('refuses stream_exists on a soft-deleted stream as deleted, not as a version conflict', async () => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, event());
    await esdb.client.deleteStream(stream);
    const error = await failureOf(esdb.client.appendToStream(stream, event(), { expectedRevision: 'stream_exists' }));
    expect(error).toBeInstanceOf(StreamDeletedError);
    expect(error).toMatchObject({ streamName: stream });
  });

  it('refuses exact 0 on a stream never written, reporting no_stream', async () => {
    const stream = streamName();
    const error = await failureOf(esdb.client.appendToStream(stream, event(), { expectedRevision: 0n }));
    expect(error).toMatchObject({ expectedVersion: 0n, actualVersion: 'no_stream' });
  });

  it('refuses any on a tombstoned stream as deleted', async () => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, event());
    await esdb.client.tombstoneStream(stream);
    expect(await failureOf(esdb.client.appendToStream(stream, event(), { expectedRevision: 'any' }))).toBeInstanceOf(StreamDeletedError);
  });

  it('un-deletes a soft-deleted stream appended at its last revision, hiding the old events', async () => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, [event(), event(), event()], { expectedRevision: 'no_stream' });
    await esdb.client.deleteStream(stream);
    const result = await esdb.client.appendToStream(stream, event(), { expectedRevision: 2n });
    expect(result.nextExpectedRevision).toBe(3n);
    expect((await readStream(esdb.client, stream)).map((e) => e.event?.revision)).toEqual([3n]);
    expect((await esdb.client.getStreamMetadata(stream)).metadata?.truncateBefore).toBe(3);
  });

  it('re-creates a soft-deleted stream appended with no_stream, numbering on from the old last revision', async () => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, [event(), event()], { expectedRevision: 'no_stream' });
    await esdb.client.deleteStream(stream);
    const result = await esdb.client.appendToStream(stream, event(), { expectedRevision: 'no_stream' });
    expect(result.nextExpectedRevision).toBe(2n);
  });

  it('accepts an append of zero events and answers with the current revision', async () => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, [event(), event()], { expectedRevision: 'no_stream' });
    const result = await esdb.client.appendToStream(stream, [], { expectedRevision: 'any' });
    expect(result).toMatchObject({ success: true, nextExpectedRevision: 1n });
    expect(await readStream(esdb.client, stream)).toHaveLength(2);
  });

  it('ran every row over the append path it is named after', () => {
    expect(batchAppend ? esdb.emulator.stats.batchAppendRequests : esdb.emulator.stats.appendCalls).toBeGreaterThan(0);
    expect(batchAppend ? esdb.emulator.stats.appendCalls : esdb.emulator.stats.batchAppendCalls).toBe(0);
  });
});
