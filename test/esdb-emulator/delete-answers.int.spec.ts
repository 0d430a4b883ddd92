/**
 * What Delete and Tombstone answer (delete.rpc.ts, delete-from-log.ts). Server source, v24.10.5: `DeleteStream`
 * (`RequestManager/Managers/DeleteStream.cs`) answers `CommitPosition` twice, the log position of the record the
 * writer wrote (`RequestManagerBase.Handle(CommitIndexed)`): `{"$tb": long.MaxValue}` in the metastream for a soft
 * delete, `$streamDeleted` for a tombstone (`StorageWriterService.Handle(WriteDelete)`); `Streams.Delete.cs` sends it
 * as `Position.FromInt64(commit, prepare)`. A soft delete of a stream with neither events nor metadata is
 * WrongExpectedVersion (current −1) whatever the expectation; a tombstone of one is written.
 */
import { WrongExpectedVersionError } from '@eventstore/db-client';
import { connectedEmulator, event, failureOf, readAllEvents, readStream, streamName } from './fidelity-helpers';

describe('delete and tombstone answers', () => {
  const esdb = connectedEmulator();

  it("answers a soft delete with its metadata record's position, commit = prepare", async () => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, event());
    const { position } = await esdb.client.deleteStream(stream);
    const [metadata] = (await readStream(esdb.client, `$$${stream}`)).slice(-1);
    expect(metadata.event!.type).toBe('$metadata');
    expect(position).toEqual(metadata.event!.position);
  });

  it("answers a tombstone with its $streamDeleted record's position, commit = prepare", async () => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, event());
    const { position } = await esdb.client.tombstoneStream(stream);
    const tombstone = (await readAllEvents(esdb.client)).find((r) => r.event?.streamId === stream && r.event.type === '$streamDeleted');
    expect(position).toEqual(tombstone!.event!.position);
  });

  it.each(['any', 'no_stream'] as const)('refuses a soft delete of a stream never written, expecting %s', async (expectedRevision) => {
    const error = await failureOf(esdb.client.deleteStream(streamName(), { expectedRevision }));
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    // The trailer carries the long −1 (`RpcExceptions.WrongExpectedVersion`), which the 6.x client reads as -1n.
    expect(error).toMatchObject({ actualVersion: -1n });
  });

  it.each(['any', 'no_stream'] as const)('writes a tombstone of a stream never written, expecting %s', async (expectedRevision) => {
    const stream = streamName();
    await esdb.client.tombstoneStream(stream, { expectedRevision });
    expect(await failureOf(readStream(esdb.client, stream))).toMatchObject({ type: 'stream-deleted' });
  });
});
