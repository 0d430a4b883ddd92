/**
 * The gRPC layer's checks on proposed events, before anything reaches the writer, in each path's own
 * order (server source v24.10.5, unchanged from v24.10.4 where noted):
 *
 * - `Grpc/Streams.Append.cs`, `Append`: per event, a missing `type` then `content-type` property is
 *   RequiredMetadataPropertyMissing; `Event.SizeOnDisk` (data + metadata + 2 × type length) above
 *   `MaxAppendEventSize` is MaximumAppendEventSizeExceeded; the running total above `MaxAppendSize` is
 *   MaximumAppendSizeExceeded; then `Uuid.FromDto` throws on an id `Guid.Parse` refuses (event-id.ts) and `new
 *   Event(…)` on an empty id or type, or a record too big (`Data/Event.cs`); either escapes the handler: gRPC UNKNOWN.
 *   The event-size refusal names the event by `proposedMessage.Id.ToString()`, the id message's diagnostic JSON.
 * - `Grpc/Streams.BatchAppend.cs`, `Receive`: per event, `FromProposedMessage` (a missing property
 *   throws `KeyNotFoundException`; `Uuid.FromDto` and `new Event` throw as above) then
 *   `ClientWriteRequest.AddEvents`' per-event size check, which names the event by its parsed `Guid` (D form);
 *   after each chunk the total. A thrown exception becomes an in-band BadRequest with its message.
 *
 * `content-type` is kept only as `IsJson` (`== "application/json"`); reads answer `application/json` or
 * `application/octet-stream` (`Grpc/Streams.Read.cs`).
 */
import type { AppendRequest } from './append-to-log';
import type { EmulatorSettings } from './context';

export type ProposalRefusal =
  | { kind: 'missing-required-metadata'; property: 'type' | 'content-type' }
  | { kind: 'maximum-append-event-size-exceeded'; eventId: string; size: number }
  | { kind: 'maximum-append-size-exceeded' }
  /** An exception thrown while building the event: UNKNOWN on Append, in-band BadRequest on BatchAppend. */
  | { kind: 'invalid-event'; message: string };

type Proposed = AppendRequest['events'][number];

const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';

export const sizeOnDisk = (e: Proposed) => e.data.length + e.metadata.length + 2 * (e.type?.length ?? 0);

export const contentTypeOf = (contentType: string | undefined) =>
  contentType === 'application/json' ? 'application/json' : 'application/octet-stream';

/**
 * `TFConsts.EffectiveMaxLogRecordSize` (16 MiB − 10 000): `new Event` refuses a larger `SizeOnDisk`. It is
 * also the Streams service's `MaxReceiveMessageSize` (`ClusterVNodeStartup`), and the options validator
 * refuses a larger `MaxAppendSize` (`ClusterVNodeOptionsValidator`), so the check is reached only on
 * BatchAppend, which builds each event before any size check, by an event whose type (counted twice on
 * disk, once in the message) pushes it over while its message still fits.
 */
export const EFFECTIVE_MAX_LOG_RECORD_SIZE = 16 * 1024 * 1024 - 10_000;

/** `Uuid.FromDto` and `new Event(…)`: what they throw, or undefined. */
function constructionError(e: Proposed): string | undefined {
  if (e.idError !== undefined) return e.idError;
  if (e.id === EMPTY_GUID) return "Empty eventId provided. (Parameter 'eventId')";
  if (!e.type) return "Empty eventType provided. (Parameter 'eventType')";
  if (sizeOnDisk(e) > EFFECTIVE_MAX_LOG_RECORD_SIZE) return "Record is too big. (Parameter 'data')";
  return undefined;
}

export function checkForAppend(events: Proposed[], settings: EmulatorSettings): ProposalRefusal | undefined {
  let total = 0;
  for (const e of events) {
    if (e.type === undefined) return { kind: 'missing-required-metadata', property: 'type' };
    if (e.contentType === undefined) return { kind: 'missing-required-metadata', property: 'content-type' };
    const size = sizeOnDisk(e);
    if (size > settings.maxAppendEventSize) {
      // `proposedMessage.Id.ToString()` on a missing id throws before the refusal is built.
      if (e.idDiagnostic === undefined) return { kind: 'invalid-event', message: 'Object reference not set to an instance of an object.' };
      return { kind: 'maximum-append-event-size-exceeded', eventId: e.idDiagnostic, size };
    }
    if ((total += size) > settings.maxAppendSize) return { kind: 'maximum-append-size-exceeded' };
    const error = constructionError(e);
    if (error) return { kind: 'invalid-event', message: error };
  }
  return undefined;
}

/** One chunk of a BatchAppend request; `total` is what earlier chunks of the same request added. */
export function checkBatchChunk(
  events: Proposed[],
  total: number,
  settings: EmulatorSettings,
): { refusal?: ProposalRefusal; total: number } {
  for (const e of events) {
    const missing = e.type === undefined ? 'type' : e.contentType === undefined ? 'content-type' : undefined;
    if (missing)
      return { total, refusal: { kind: 'invalid-event', message: `The given key '${missing}' was not present in the dictionary.` } };
    const error = constructionError(e);
    if (error) return { total, refusal: { kind: 'invalid-event', message: error } };
    const size = sizeOnDisk(e);
    if (size > settings.maxAppendEventSize) return { total, refusal: { kind: 'maximum-append-event-size-exceeded', eventId: e.id, size } };
    total += size;
  }
  return total > settings.maxAppendSize ? { total, refusal: { kind: 'maximum-append-size-exceeded' } } : { total };
}
