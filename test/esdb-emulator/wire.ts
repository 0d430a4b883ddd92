/**
 * Building and reading protocol messages. uint64 fields are decimal strings (`jstype = JS_STRING`),
 * bytes arrive as base64 or Uint8Array and are always read with `_asU8()` (the client's generated
 * `@eventstore/db-client/generated/*_pb.js`: uint64 fields are declared `jstype = JS_STRING`, and the client sets JSON
 * `data` as a base64 string, `dist/streams/appendToStream/batchAppend.js`).
 */
import type { SharedPb, StreamsPb } from './proto';
import { anyPb, sharedPb, statusPb, streamsPb } from './proto';
import type { StoredEvent } from './event-log';
import { toWire, type TfPos } from './tf-pos';
import { guidOfHalves, structuredUuid } from './event-id';

export function streamIdentifier(name: string): SharedPb.StreamIdentifier {
  return new sharedPb.StreamIdentifier().setStreamName(Buffer.from(name, 'utf8'));
}

export function streamNameOf(identifier: SharedPb.StreamIdentifier | undefined): string {
  return Buffer.from(identifier?.getStreamName_asU8() ?? new Uint8Array()).toString('utf8');
}

/** A BatchAppend correlation id, either encoding; the client always sends the string form. */
export function uuidOf(uuid: SharedPb.UUID | undefined): string | undefined {
  if (!uuid) return undefined;
  if (uuid.hasStructured()) {
    const structured = uuid.getStructured()!;
    return guidOfHalves(
      BigInt.asIntN(64, BigInt(structured.getMostSignificantBits())),
      BigInt.asIntN(64, BigInt(structured.getLeastSignificantBits())),
    );
  }
  return uuid.getString().toLowerCase();
}

export function stringUuid(id: string): SharedPb.UUID {
  return new sharedPb.UUID().setString(id);
}

/**
 * How a read or subscription wants event ids: `ConvertToRecordedEvent` (`Streams.Read.cs`, v24.10.5) sends
 * `e.EventId.ToString()` when the request's `uuid_option` is `string`, and `Uuid.FromGuid(e.EventId).ToDto()`, the
 * structured form, otherwise. The 6.x client always asks for strings.
 */
export type IdForm = 'string' | 'structured';

export function idFormOf(options: StreamsPb.ReadReq.Options): IdForm {
  return options.getUuidOption()?.hasString() ? 'string' : 'structured';
}

const wireCache: Record<IdForm, WeakMap<StoredEvent, StreamsPb.ReadResp>> = { string: new WeakMap(), structured: new WeakMap() };

function recordedEvent(event: StoredEvent, form: IdForm): StreamsPb.ReadResp.ReadEvent.RecordedEvent {
  const recorded = new streamsPb.ReadResp.ReadEvent.RecordedEvent()
    .setId(form === 'string' ? stringUuid(event.id) : structuredUuid(event.id))
    .setStreamIdentifier(streamIdentifier(event.stream))
    .setStreamRevision(event.revision.toString())
    .setPreparePosition(event.position.toString())
    .setCommitPosition(event.position.toString())
    .setData(event.data)
    .setCustomMetadata(event.metadata);
  recorded.getMetadataMap().set('type', event.type).set('content-type', event.contentType).set('created', event.created.toString());
  return recorded;
}

/** One `ReadResp{event}` per stored event and id form, built once: reads and every subscriber reuse it. */
export function eventResponse(event: StoredEvent, form: IdForm = 'string'): StreamsPb.ReadResp {
  let response = wireCache[form].get(event);
  if (!response) {
    const readEvent = new streamsPb.ReadResp.ReadEvent().setEvent(recordedEvent(event, form)).setCommitPosition(event.position.toString());
    response = new streamsPb.ReadResp().setEvent(readEvent);
    wireCache[form].set(event, response);
  }
  return response;
}

/**
 * A link read with `resolveLinkTos` (`Streams.Read.cs` `ConvertToReadEvent`): `event` is the target
 * (absent when it could not be read), `link` the `$>` record, the position the link's own.
 */
export function linkResponse(link: StoredEvent, target: StoredEvent | undefined, form: IdForm = 'string'): StreamsPb.ReadResp {
  const readEvent = new streamsPb.ReadResp.ReadEvent().setLink(recordedEvent(link, form)).setCommitPosition(link.position.toString());
  if (target) readEvent.setEvent(recordedEvent(target, form));
  return new streamsPb.ReadResp().setEvent(readEvent);
}

/** A checkpoint as `Position.FromInt64` puts it on the wire: `HeadOfTf` (−1, −1) becomes `Position.End`. */
export function checkpointResponse(pos: TfPos): StreamsPb.ReadResp {
  const { commit, prepare } = toWire(pos);
  const checkpoint = new streamsPb.ReadResp.Checkpoint().setCommitPosition(commit).setPreparePosition(prepare);
  return new streamsPb.ReadResp().setCheckpoint(checkpoint);
}

/** An in-band `google.rpc.Status` whose details pack one of the client's shared messages (server `Grpc/Status.cs`). */
export function inBandStatus(code: number, message: string, detailsType: string, details: { serializeBinary(): Uint8Array }) {
  const packed = new anyPb.Any();
  packed.pack(details.serializeBinary(), `event_store.client.${detailsType}`);
  return new statusPb.Status().setCode(code).setMessage(message).setDetails(packed);
}
