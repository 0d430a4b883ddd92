/**
 * Errors the server reports as a gRPC status with trailers (`Services/Transport/Grpc/RpcExceptions.cs`, kurrent-io/KurrentDB v24.10.5). The client builds its error
 * classes from the `exception` trailer and reads the companion trailers unconditionally, so each
 * constructor here always sends the full set.
 */
import type { GrpcJs } from './proto';
import { grpc } from './proto';

export interface RpcError extends Partial<GrpcJs.StatusObject> {
  code: GrpcJs.status;
  details: string;
  metadata: GrpcJs.Metadata;
  message: string;
}

function rpcError(code: GrpcJs.status, details: string, trailers: Record<string, string> = {}): RpcError {
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries(trailers)) metadata.set(key, value);
  return { code, details, metadata, message: details };
}

export const rpcErrors = {
  streamDeleted: (stream: string) =>
    rpcError(grpc.status.FAILED_PRECONDITION, `Event stream '${stream}' is deleted.`, {
      exception: 'stream-deleted',
      'stream-name': stream,
    }),
  /** Delete/Tombstone only: appends report a version mismatch in-band. */
  wrongExpectedVersion: (stream: string, expected: bigint, actual: bigint) =>
    rpcError(
      grpc.status.FAILED_PRECONDITION,
      `Delete failed due to WrongExpectedVersion. Stream: ${stream}, Expected version: ${expected}, Actual version: ${actual}`,
      {
        exception: 'wrong-expected-version',
        'stream-name': stream,
        'expected-version': expected.toString(),
        'actual-version': actual.toString(),
      },
    ),
  maximumAppendSizeExceeded: (maxAppendSize: number) =>
    rpcError(grpc.status.INVALID_ARGUMENT, `Maximum Append Size of ${maxAppendSize} Exceeded.`, {
      exception: 'maximum-append-size-exceeded',
      'maximum-append-size': String(maxAppendSize),
    }),
  /** `RpcExceptions.MaxAppendEventSizeExceeded`; the 6.x client does not know this `exception`. */
  maximumAppendEventSizeExceeded: (eventId: string, size: number, max: number) =>
    rpcError(grpc.status.INVALID_ARGUMENT, `Event with Id: ${eventId}, Size: ${size}, exceeds Maximum Append Event Size of ${max}.`, {
      exception: 'maximum-append-event-size-exceeded',
      'maximum-append-event-size': String(max),
      'event-id': eventId,
      'proposed-append-event-size': String(size),
    }),
  /** `RpcExceptions.UnknownError(…)`: UNKNOWN with the server's message, no trailers. */
  unknown: (details: string) => rpcError(grpc.status.UNKNOWN, details),
  /** An exception escaping a handler: ASP.NET Core gRPC answers UNKNOWN without details. */
  handlerException: () => rpcError(grpc.status.UNKNOWN, 'Exception was thrown by handler.'),
  /** `RpcExceptions.RequiredMetadataPropertyMissing(name)`: the details name the property; the trailer lists both. */
  missingRequiredMetadata: (property: string) =>
    rpcError(grpc.status.INVALID_ARGUMENT, `Required Metadata Property '${property}' is missing`, {
      exception: 'missing-required-metadata-property',
      'required-metadata-properties': 'type,content-type',
    }),
  invalidArgument: (details: string) => rpcError(grpc.status.INVALID_ARGUMENT, details),
  /** The server's commit timeout on the unary Append path. */
  /**
   * `RpcExceptions.Timeout(completed.Message)` for an append or a delete whose request manager timed out: the message
   * is `RequestManagerBase`'s "Commit phase timeout." (`WriteEvents`/`DeleteStream` wait for no prepares), v24.10.5.
   */
  writeTimeout: () => rpcError(grpc.status.ABORTED, 'Operation timed out: Commit phase timeout.'),
  notReady: () => rpcError(grpc.status.UNAVAILABLE, 'Server Is Not Ready'),
  /** `RpcExceptions.AccessDenied()`. */
  accessDenied: () => rpcError(grpc.status.PERMISSION_DENIED, 'Access Denied', { exception: 'access-denied' }),
  /** `AuthenticationMiddleware.HandleAsGrpcAsync`: credentials given but not a known user's. */
  unauthenticated: () => rpcError(grpc.status.UNAUTHENTICATED, 'Unauthenticated'),
  /** What the client reports when the server's connection goes away under a call (grpc-js: UNAVAILABLE). */
  connectionLost: () => rpcError(grpc.status.UNAVAILABLE, 'Connection dropped'),
  cancelled: () => rpcError(grpc.status.CANCELLED, 'Cancelled by the server'),
};
