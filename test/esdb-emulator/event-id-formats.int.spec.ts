/**
 * Event ids in every form `Guid.Parse` takes. The 6.x client sends `event.id` as the UUID message's string unchanged
 * (`dist/utils/grpcUUID.js` `createUUID`); the server parses it with `Guid.Parse` (`Uuid.FromDto`, `Grpc/Uuid.cs`,
 * v24.10.5), keeps the `Guid`, and reads it back as its D form in lower case (`Streams.Read.cs`
 * `ConvertToRecordedEvent`: `e.EventId.ToString()`). An id it cannot parse fails the append before the writer: an
 * exception escaping the Append handler (UNKNOWN), an in-band BadRequest carrying the exception's message on
 * BatchAppend (`Streams.BatchAppend.cs` `Receive`).
 */
import { randomUUID } from 'node:crypto';
import { UnknownError, jsonEvent } from '@eventstore/db-client';
import { APPEND_PATHS, connectedEmulator, event, failureOf, readStream, streamName } from './fidelity-helpers';
import { eventIdFromDto } from './event-id';
import { StreamsClient, emptyPb, grpc, sharedPb, streamsPb, type SharedPb, type StreamsPb } from './proto';

const GUID = 'ca761232-ed42-11ce-bacd-00aa0057b223';
const FORMS = [
  ['N', 'ca761232ed4211cebacd00aa0057b223'],
  ['D in upper case', 'CA761232-ED42-11CE-BACD-00AA0057B223'],
  ['B', '{CA761232-ED42-11CE-BACD-00AA0057B223}'],
  ['P', '(ca761232-ed42-11ce-bacd-00aa0057b223)'],
  ['X', '{0xCA761232, 0xED42, 0x11CE, {0xBA, 0xCD, 0x00, 0xAA, 0x00, 0x57, 0xB2, 0x23}}'],
  ['D with white space around', `\t ${GUID} \n`],
] as const;

describe.each(APPEND_PATHS)('event ids over $path', ({ batchAppend }) => {
  const esdb = connectedEmulator({ batchAppend });

  it.each(FORMS)('accepts an id in the %s form and reads it back in the D form, lower case', async (_form, id) => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, event(id));
    expect((await readStream(esdb.client, stream)).map((r) => r.event!.id)).toEqual([GUID]);
  });

  it('takes the same Guid in another form as the same event: a retry is idempotent', async () => {
    const stream = streamName();
    const first = await esdb.client.appendToStream(stream, event(FORMS[0][1]), { expectedRevision: 'no_stream' });
    const again = await esdb.client.appendToStream(stream, event(FORMS[4][1]), { expectedRevision: 'no_stream' });
    expect(again).toEqual(first);
    expect(await readStream(esdb.client, stream)).toHaveLength(1);
  });

  it('refuses an id Guid.Parse refuses and writes nothing', async () => {
    const stream = streamName();
    const error = await failureOf(esdb.client.appendToStream(stream, [event(), event('order-1')]));
    // BatchAppend's BadRequest is not a type the 6.x client knows; Append's UNKNOWN is an UnknownError.
    if (batchAppend) expect(error.message).toBe('Could not recognize BadRequest');
    else expect(error).toBeInstanceOf(UnknownError);
    expect(await failureOf(readStream(esdb.client, stream))).toMatchObject({ type: 'stream-not-found' });
  });
});

describe('an event over MaxAppendEventSize, on Append', () => {
  const esdb = connectedEmulator({ batchAppend: false, maxAppendEventSize: 4_096 });

  // `RpcExceptions.MaxAppendEventSizeExceeded(proposedMessage.Id.ToString(), …)`: the id message's diagnostic JSON,
  // with the id as sent (`Streams.Append.cs`, v24.10.5).
  it('is named by its id message as JSON, the id as sent', async () => {
    const big = jsonEvent({ id: FORMS[1][1], type: 'Big', data: { text: 'x'.repeat(5_000) } });
    const error = await failureOf(esdb.client.appendToStream(streamName(), big));
    expect(error.message).toContain(`Event with Id: { "string": "${FORMS[1][1]}" }, Size: `);
  });
});

describe('event ids on the raw BatchAppend wire', () => {
  const esdb = connectedEmulator();

  /** One BatchAppend request of one event with this id; resolves with the server's answer. */
  async function batchAppendOne(stream: string, id: SharedPb.UUID): Promise<StreamsPb.BatchAppendResp> {
    const client = new StreamsClient(`127.0.0.1:${esdb.emulator.port}`, grpc.credentials.createInsecure());
    const call = client.batchAppend();
    const answer = new Promise<StreamsPb.BatchAppendResp>((resolve) => call.once('data', resolve));
    const options = new streamsPb.BatchAppendReq.Options()
      .setStreamIdentifier(new sharedPb.StreamIdentifier().setStreamName(Buffer.from(stream)))
      .setAny(new emptyPb.Empty());
    const proposed = new streamsPb.BatchAppendReq.ProposedMessage().setId(id).setData(Buffer.from('{}'));
    proposed.getMetadataMap().set('type', 'Happened').set('content-type', 'application/json');
    const request = new streamsPb.BatchAppendReq().setCorrelationId(new sharedPb.UUID().setString(randomUUID()));
    call.write(request.setOptions(options).setProposedMessagesList([proposed]).setIsFinal(true));
    const response = await answer;
    call.end();
    client.close();
    return response;
  }

  it("answers an unparsable id with a BadRequest carrying Guid.Parse's message", async () => {
    const response = await batchAppendOne(streamName(), new sharedPb.UUID().setString('dddddddd-ddddd-ddd-dddd-dddddddddddd'));
    const status = response.getError()!;
    expect([status.getCode(), status.getMessage()]).toEqual([3, 'BadRequest']);
    const details = sharedPb.BadRequest.deserializeBinary(status.getDetails()!.getValue_asU8());
    expect(details.getMessage()).toBe('Dashes are in the wrong position for GUID parsing.');
  });

  it('takes a structured id, most significant half first, and reads it back in the D form', async () => {
    const stream = streamName();
    const structured = new sharedPb.UUID.Structured()
      .setMostSignificantBits(BigInt.asIntN(64, 0xca761232ed4211cen).toString())
      .setLeastSignificantBits(BigInt.asIntN(64, 0xbacd00aa0057b223n).toString());
    expect((await batchAppendOne(stream, new sharedPb.UUID().setStructured(structured))).hasSuccess()).toBe(true);
    expect((await readStream(esdb.client, stream)).map((r) => r.event!.id)).toEqual([GUID]);
  });
});

// `ConvertToRecordedEvent` (`Streams.Read.cs`): the string form only when the request's `uuid_option` asks for it.
describe('event ids on a raw read that asks for the structured form', () => {
  const esdb = connectedEmulator();

  /** The first event's id as sent on a read (`count` 1) or a subscription of `stream`, with `uuid_option` structured. */
  async function firstId(stream: string, subscribe: boolean): Promise<SharedPb.UUID> {
    const client = new StreamsClient(`127.0.0.1:${esdb.emulator.port}`, grpc.credentials.createInsecure());
    const streamOptions = new streamsPb.ReadReq.Options.StreamOptions()
      .setStreamIdentifier(new sharedPb.StreamIdentifier().setStreamName(Buffer.from(stream)))
      .setStart(new sharedPb.Empty());
    const options = new streamsPb.ReadReq.Options()
      .setStream(streamOptions)
      .setResolveLinks(false)
      .setNoFilter(new sharedPb.Empty())
      .setUuidOption(new streamsPb.ReadReq.Options.UUIDOption().setStructured(new sharedPb.Empty()));
    if (subscribe) options.setSubscription(new streamsPb.ReadReq.Options.SubscriptionOptions());
    else options.setCount('1');
    const call = client.read(new streamsPb.ReadReq().setOptions(options));
    try {
      for await (const response of call as AsyncIterable<StreamsPb.ReadResp>) {
        if (response.hasEvent()) return response.getEvent()!.getEvent()!.getId()!;
      }
      throw new Error('no event');
    } finally {
      call.cancel();
      client.close();
    }
  }

  it.each([false, true])('sends the two halves (subscription: %s)', async (subscribe) => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, event(FORMS[0][1]));
    const id = await firstId(stream, subscribe);
    expect(id.hasStructured()).toBe(true);
    expect(eventIdFromDto(id).id).toBe(GUID);
  });
});
