/**
 * Which of the suite's test files run against the emulator, and why the others do not: each skipped
 * file tests a feature the emulator does not claim (ESDB-NOTES.md, "Not emulated").
 */
const RUN = [
  'streams/appendToStream.test.ts',
  'streams/appendToStream-batch-append.test.ts',
  'streams/appendToStream-batch-append-flood.test.ts',
  'streams/appendToStream-errors.test.ts',
  'streams/deleteStream.test.ts',
  'streams/getStreamMetadata.test.ts',
  'streams/readAll.test.ts',
  'streams/readStream.test.ts',
  'streams/setStreamMetadata.test.ts',
  'streams/subscribeToAll.test.ts',
  'streams/subscribeToAll-filters.test.ts',
  'streams/subscribeToStream.test.ts',
  'streams/tombstoneStream.test.ts',
  'extra/RecordedEvent-created.test.ts',
  'extra/dispose.test.ts',
  'extra/encoding.test.ts',
  'extra/oversize-event.test.ts',
  'extra/typedEvents.test.ts',
  'extra/typedEvents-more.test.ts',
  'extra/write-after-end.test.ts',
  'extra/http2-assertion-failure.test.ts',
  'connection/cluster.test.ts',
  'connection/insecure.test.ts',
  'connection/singleNode.test.ts',
  'connection/tlsCAFile.test.ts',
  'connection/defaultCredentials.test.ts',
  'connection/not-leader.test.ts',
  'connection/reconnect/NotLeaderError.test.ts',
  'connection/reconnect/UnavailableError.test.ts',
  'connection/reconnect/mid-stream.test.ts',
  'connection/reconnect/all-nodes-down.test.ts',
  'connection/reconnect/no-reconnection.test.ts',
  'connection/deadline/deadline-effects.test.ts',
  'connection/connectionString/insecure-single-node.test.ts',
  'connection/connectionString/secure-single-node.test.ts',
  'connection/connectionString/insecure-cluster.test.ts',
  'connection/connectionString/secure-cluster.test.ts',
  'connection/Channel.test.ts',
  'connection/connectionName.test.ts',
  'connection/keepAlive.test.ts',
];

const SKIP = [];

module.exports = { RUN, SKIP };
