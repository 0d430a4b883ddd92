/**
 * The in-band answers of `Streams.BatchAppend` (`Grpc/Streams.BatchAppend.cs`, `ConvertMessage`, and
 * `Grpc/Status.cs` for the error shapes): `google.rpc.Status` values whose details pack one of the
 * client's shared messages (kurrent-io/KurrentDB v24.10.5).
 */
import type { AppendOutcome } from './append-to-log';
import type { EmulatorContext } from './context';
import { ANY, NO_STREAM, STREAM_EXISTS } from './event-log';
import type { ProposalRefusal } from './proposed-events';
import { emptyPb, jspb, sharedPb, streamsPb, type SharedPb, type StreamsPb } from './proto';
import { inBandStatus, streamIdentifier } from './wire';

export function success(outcome: Extract<AppendOutcome, { kind: 'success' }>): StreamsPb.BatchAppendResp.Success {
  const result = new streamsPb.BatchAppendResp.Success();
  if (outcome.revision < 0n) result.setNoStream(new emptyPb.Empty());
  else result.setCurrentRevision(outcome.revision.toString());
  if (outcome.position === undefined) result.setNoPosition(new emptyPb.Empty());
  else
    result.setPosition(new sharedPb.AllStreamPosition().setCommitPosition(`${outcome.position}`).setPreparePosition(`${outcome.position}`));
  return result;
}

export function failure(
  ctx: EmulatorContext,
  stream: string,
  expected: bigint,
  outcome: Exclude<AppendOutcome, { kind: 'success' | 'dropped' }>,
) {
  switch (outcome.kind) {
    case 'wrong-expected-version':
      return inBandStatus(6, 'WrongExpectedVersion', 'WrongExpectedVersion', wrongExpectedVersion(expected, outcome.current));
    case 'stream-deleted':
      return inBandStatus(5, 'StreamDeleted', 'StreamDeleted', new sharedPb.StreamDeleted().setStreamIdentifier(streamIdentifier(stream)));
    case 'timeout':
      return timeout();
  }
}

/** `Status.AccessDenied`: `Receive` checks the caller's access to the stream on each request's options. */
export function accessDenied() {
  return inBandStatus(7, 'AccessDenied', 'AccessDenied', new sharedPb.AccessDenied());
}

/** `Status.Timeout`: the deadline passed before the request was complete, or the write timed out. */
export function timeout() {
  return inBandStatus(4, 'Timeout', 'Timeout', new sharedPb.Timeout());
}

export function refused(ctx: EmulatorContext, refusal: ProposalRefusal) {
  switch (refusal.kind) {
    case 'maximum-append-size-exceeded':
      return inBandStatus(
        3,
        'MaximumAppendSizeExceeded',
        'MaximumAppendSizeExceeded',
        new sharedPb.MaximumAppendSizeExceeded().setMaxappendsize(ctx.settings.maxAppendSize),
      );
    case 'maximum-append-event-size-exceeded':
      return inBandStatus(
        3,
        'MaximumAppendEventSizeExceeded',
        'MaximumAppendEventSizeExceeded',
        maximumAppendEventSizeExceeded(refusal.eventId, refusal.size, ctx.settings.maxAppendEventSize),
      );
    case 'missing-required-metadata':
    case 'invalid-event':
      return inBandStatus(
        3,
        'BadRequest',
        'BadRequest',
        new sharedPb.BadRequest().setMessage('message' in refusal ? refusal.message : 'Required metadata properties missing'),
      );
  }
}

/**
 * `shared.proto` (server v24.10.x) `MaximumAppendEventSizeExceeded { string eventId = 1; uint32
 * proposedEventSize = 2; uint32 maxAppendEventSize = 3; }` — absent from the 6.x client's generated
 * code, so written field by field.
 */
function maximumAppendEventSizeExceeded(eventId: string, size: number, max: number) {
  return {
    serializeBinary() {
      const writer = new jspb.BinaryWriter();
      writer.writeString(1, eventId);
      writer.writeUint32(2, size);
      writer.writeUint32(3, max);
      return writer.getResultBuffer();
    },
  };
}

/** `shared.proto` WrongExpectedVersion: the expected case mirrors the request (`Status.WrongExpectedVersion`, `Grpc/Status.cs`). */
function wrongExpectedVersion(expected: bigint, current: bigint): SharedPb.WrongExpectedVersion {
  const wev = new sharedPb.WrongExpectedVersion();
  if (current < 0n) wev.setCurrentNoStream(new emptyPb.Empty());
  else wev.setCurrentStreamRevision(current.toString());
  if (expected === ANY) wev.setExpectedAny(new emptyPb.Empty());
  else if (expected === NO_STREAM) wev.setExpectedNoStream(new emptyPb.Empty());
  else if (expected === STREAM_EXISTS) wev.setExpectedStreamExists(new emptyPb.Empty());
  else wev.setExpectedStreamPosition(expected.toString());
  return wev;
}
