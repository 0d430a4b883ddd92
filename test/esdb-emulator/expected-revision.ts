/**
 * The expected-revision oneof on the wire (the client's generated `streams_pb.js`; the server maps it in
 * `Grpc/Streams.Append.cs`, `Streams.BatchAppend.cs` `FromOptions` and `Streams.Delete.cs`, kurrent-io/KurrentDB v24.10.5). Append, BatchAppend, Delete and Tombstone all
 * number its cases alike: 2 revision / stream_position, 3 no_stream, 4 any, 5 stream_exists.
 */
import type { AppendRequest } from './append-to-log';
import { eventIdFromDto } from './event-id';
import { ANY, NO_STREAM, STREAM_EXISTS } from './event-log';
import type { SharedPb } from './proto';

const REVISION_CASE = 2;
const NO_STREAM_CASE = 3;
const ANY_CASE = 4;
const STREAM_EXISTS_CASE = 5;

/** The server's code for the expectation, or undefined when the oneof is missing (INVALID_ARGUMENT). */
export function expectedFromWire(oneofCase: number, revision: string): bigint | undefined {
  switch (oneofCase) {
    case REVISION_CASE:
      return BigInt(revision);
    case NO_STREAM_CASE:
      return NO_STREAM;
    case ANY_CASE:
      return ANY;
    case STREAM_EXISTS_CASE:
      return STREAM_EXISTS;
    default:
      return undefined;
  }
}

interface WireProposedMessage {
  getId(): SharedPb.UUID | undefined;
  getMetadataMap(): { get(key: string): string | undefined };
  getData_asU8(): Uint8Array;
  getCustomMetadata_asU8(): Uint8Array;
}

/**
 * `type` and `content-type` stay undefined when missing, and an id that does not parse keeps its error, so the append
 * can refuse them as the server does, in its order (proposed-events.ts).
 */
export function proposedFromWire(message: WireProposedMessage): AppendRequest['events'][number] {
  const metadata = message.getMetadataMap();
  const { id, error, diagnostic } = eventIdFromDto(message.getId());
  return {
    id,
    idError: error,
    idDiagnostic: diagnostic,
    type: metadata.get('type'),
    contentType: metadata.get('content-type'),
    data: message.getData_asU8(),
    metadata: message.getCustomMetadata_asU8(),
  };
}
