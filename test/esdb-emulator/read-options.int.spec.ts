/**
 * Read options at their edges, as the server answers them (read.rpc.ts `streamReadRefusal`; sources there):
 * stream reads of 0 events, forwards from `End`, or from a revision no `StreamRevision` holds are refused before the
 * stream is looked at; reads starting past the end answer nothing; option combinations `CreateEnumerator` does not
 * serve are invalid arguments (read-combinations.ts).
 */
import { BACKWARDS, END, UnknownError } from '@eventstore/db-client';
import { connectedEmulator, event, failureOf, readStream, streamName } from './fidelity-helpers';
import { StreamsClient, grpc, sharedPb, streamsPb, type StreamsPb } from './proto';

describe('stream read options at their edges', () => {
  const esdb = connectedEmulator();
  let stream: string;
  beforeAll(async () => {
    stream = streamName();
    await esdb.client.appendToStream(stream, [event(), event(), event()]);
  });

  const read = async (name: string, options: Parameters<typeof esdb.client.readStream>[1]) => {
    const revisions: bigint[] = [];
    for await (const resolved of esdb.client.readStream(name, options)) revisions.push(resolved.event!.revision);
    return revisions;
  };

  it.each([
    ['a count of 0', { maxCount: 0 }],
    ['a count of 0, backwards', { maxCount: 0, direction: BACKWARDS }],
    ['forwards from the end', { fromRevision: END }],
  ] as const)("refuses %s as the storage reader's error, whether or not the stream exists", async (_what, options) => {
    for (const name of [stream, streamName()]) {
      const error = await failureOf(read(name, options));
      expect(error).toBeInstanceOf(UnknownError);
      expect(error.message).toContain('Unexpected ReadStreamResult: Error');
    }
  });

  it('refuses a revision above long.MaxValue that is not End as an exception in the handler', async () => {
    const error = await failureOf(read(stream, { fromRevision: 2n ** 63n }));
    expect(error).toBeInstanceOf(UnknownError);
    expect(error.message).toContain('Exception was thrown by handler.');
  });

  it('reads ulong.MaxValue backwards as End, and from the end backwards, newest first', async () => {
    expect(await read(stream, { fromRevision: 2n ** 64n - 1n, direction: BACKWARDS })).toEqual([2n, 1n, 0n]);
    expect(await read(stream, { fromRevision: END, direction: BACKWARDS })).toEqual([2n, 1n, 0n]);
  });

  it('answers nothing forwards from past the end, and the tail backwards from past it', async () => {
    expect(await read(stream, { fromRevision: 10n })).toEqual([]);
    expect(await read(stream, { fromRevision: 10n, direction: BACKWARDS })).toEqual([2n, 1n, 0n]);
    expect((await readStream(esdb.client, stream)).length).toBe(3);
  });
});

describe('read option combinations on the raw wire', () => {
  const esdb = connectedEmulator();
  const Options = streamsPb.ReadReq.Options;

  /** The status a raw read with these options ends with (events, if any, are drained). */
  async function statusOf(
    shape: (options: StreamsPb.ReadReq.Options) => void,
    deadlineMs = 10_000,
  ): Promise<{ code: number; details: string }> {
    const client = new StreamsClient(`127.0.0.1:${esdb.emulator.port}`, grpc.credentials.createInsecure());
    const options = new Options()
      .setStream(
        new Options.StreamOptions()
          .setStreamIdentifier(new sharedPb.StreamIdentifier().setStreamName(Buffer.from(streamName())))
          .setStart(new sharedPb.Empty()),
      )
      .setCount('10')
      .setNoFilter(new sharedPb.Empty())
      .setUuidOption(new Options.UUIDOption().setString(new sharedPb.Empty()));
    shape(options);
    // Bounded, so a server that wrongly starts a subscription fails the row (DEADLINE_EXCEEDED) instead of hanging it.
    const call = client.read(new streamsPb.ReadReq().setOptions(options), { deadline: Date.now() + deadlineMs });
    try {
      for await (const response of call as AsyncIterable<StreamsPb.ReadResp>) void response;
      return { code: grpc.status.OK, details: '' };
    } catch (error) {
      const { code, details } = error as { code: number; details: string };
      return { code, details };
    } finally {
      client.close();
    }
  }

  const expression = () => new Options.FilterOptions.Expression().setPrefixList(['order-']);
  it.each([
    [
      'a backward stream subscription',
      (o: StreamsPb.ReadReq.Options) =>
        o.setSubscription(new Options.SubscriptionOptions()).setReadDirection(Options.ReadDirection.BACKWARDS),
      'Stream, Subscription, Backwards, NoFilter',
    ],
    [
      'a filter on a stream read',
      (o: StreamsPb.ReadReq.Options) =>
        o.setFilter(new Options.FilterOptions().setStreamIdentifier(expression()).setCount(new sharedPb.Empty())),
      'Stream, Count, Forwards, Filter',
    ],
    ['a read without its filter option', (o: StreamsPb.ReadReq.Options) => o.clearNoFilter(), 'Stream, Count, Forwards, None'],
    ['a read without a count', (o: StreamsPb.ReadReq.Options) => o.clearCount(), 'Stream, None, Forwards, NoFilter'],
    [
      'a direction that is neither',
      (o: StreamsPb.ReadReq.Options) => o.setReadDirection(7 as StreamsPb.ReadReq.Options.ReadDirection),
      'Stream, Count, 7, NoFilter',
    ],
  ])('refuses %s as an invalid combination', async (_what, shape, combination) => {
    expect(await statusOf(shape)).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      details: `The combination of (${combination}) is invalid.`,
    });
  });

  it('never ends a $all read of 0 events: the call runs to its deadline', async () => {
    const all = new Options.AllOptions().setStart(new sharedPb.Empty());
    expect(await statusOf((o) => o.setAll(all).setCount('0'), 500)).toMatchObject({ code: grpc.status.DEADLINE_EXCEEDED });
  });

  it('serves a read of a stream that does not exist as StreamNotFound, ending OK', async () => {
    expect(await statusOf(() => undefined)).toEqual({ code: grpc.status.OK, details: '' });
  });
});
