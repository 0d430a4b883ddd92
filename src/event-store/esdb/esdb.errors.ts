/**
 * The client's errors, read the port's way. A version conflict becomes the port's typed conflict with
 * the actual revision; a stream the server refuses for good (a tombstone) becomes `StreamDeleted`; size
 * refusals become `InvalidAppend` (they normally never reach the server: `prepareAppend` checks first).
 * Connection-level errors are classified, not wrapped: callers of both adapters see the driver's own
 * error for an unreachable store.
 */
import {
  CancelledError,
  DeadlineExceededError,
  MaxAppendSizeExceededError,
  NotLeaderError,
  RequiredMetadataPropertyMissingError,
  StreamDeletedError,
  TimeoutError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { InvalidAppend, StreamDeleted, WrongExpectedVersion } from '../errors';
import type { ExpectedRevision } from '../event-store.port';

export function toAppendError(error: unknown, stream: string, expected: ExpectedRevision): unknown {
  if (error instanceof WrongExpectedVersionError) {
    const actual = error.actualVersion === 'no_stream' ? 'no_stream' : Number(error.actualVersion);
    return new WrongExpectedVersion(stream, expected, actual);
  }
  if (error instanceof StreamDeletedError) return new StreamDeleted(stream);
  if (error instanceof MaxAppendSizeExceededError) {
    return new InvalidAppend('EVENT_TOO_LARGE', `The append exceeds the server's limit of ${error.maxAppendSize} bytes`);
  }
  // 24.10+ servers also limit single events; the 6.x client cannot name that error: BatchAppend's in-band
  // `MaximumAppendEventSizeExceeded`, Append's INVALID_ARGUMENT "… exceeds Maximum Append Event Size of N."
  // (`Grpc/Status.cs`, `Grpc/RpcExceptions.cs`) both arrive as UnknownError.
  if (error instanceof UnknownError && /MaximumAppendEventSizeExceeded|exceeds Maximum Append Event Size/.test(error.message)) {
    return new InvalidAppend('EVENT_TOO_LARGE', "An event exceeds the server's per-event size limit");
  }
  if (error instanceof RequiredMetadataPropertyMissingError) {
    return new InvalidAppend('EVENT_TYPE', 'The server requires an event type and a content type');
  }
  return error;
}

const GRPC_CANCELLED = 1;
const GRPC_UNAVAILABLE = 14;

function isCancelledOnClient(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === GRPC_CANCELLED && /Cancelled on client/.test(error.message);
}

/**
 * The first call on a new connection (after a drop, the client reconnects lazily) asks the server for its features
 * before it appends (6.2.1 `Client.capabilities`, `ServerFeatures.createServerFeatures`), and rejects with that
 * request's raw gRPC error: a server still away gives a ServiceError with code UNAVAILABLE, not an UnavailableError
 * (the client converts it only to decide on reconnecting). Nothing was sent.
 */
function isUnavailableUnconverted(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === GRPC_UNAVAILABLE;
}

/** The call ended without a verdict on the data: the connection went, or the server gave up waiting. */
export function isConnectionDrop(error: unknown): boolean {
  return (
    error instanceof UnavailableError ||
    error instanceof CancelledError ||
    error instanceof DeadlineExceededError ||
    error instanceof NotLeaderError
  );
}

/**
 * An append that may or may not have been written (esdb.md §5.2), or that the server refused before
 * writing because of its state. BatchAppend reports not ready / too busy in-band as a `Status` with
 * `google.protobuf.Empty` details (`Grpc/Streams.BatchAppend.cs`, `ConvertMessage`), which the 6.x
 * client can only surface as an UnknownError naming the message. A call cancelled on the client side
 * is unknown too: 6.2.1 rejects every pending batch append with another call's cancellation when that
 * call ends (orphaned-answers.ts), and leaves that error unconverted (a raw gRPC CANCELLED); so is a raw
 * UNAVAILABLE from the feature check before an append on a new connection (refused before writing).
 */
export function isOutcomeUnknown(error: unknown): boolean {
  return (
    isConnectionDrop(error) ||
    isCancelledOnClient(error) ||
    isUnavailableUnconverted(error) ||
    error instanceof TimeoutError ||
    (error instanceof UnknownError && /Server Is Not Ready|Server Is Busy|No leader info available/.test(error.message))
  );
}
