/**
 * Filter options a filtered `$all` subscription refuses, as the server does. Server source
 * (kurrent-io/KurrentDB v24.10.5): `Grpc/Streams.Read.cs` `CreateEnumerator` (a window that is neither
 * `count` nor `max` is `RpcExceptions.InvalidArgument`), `Enumerator.AllSubscriptionFiltered`'s
 * constructor (`ThrowIfZero(checkpointIntervalMultiplier)`, escaping the handler: UNKNOWN) and its
 * `CatchUp` (a `max` window of 0 makes the interval 0, and `%= 0` throws; so does a window × multiplier that wraps
 * the uint to 0).
 */
import { connectedEmulator, event, streamName } from './fidelity-helpers';
import { StreamsClient, grpc, sharedPb, streamsPb, type StreamsPb } from './proto';

const Filter = streamsPb.ReadReq.Options.FilterOptions;

/** What the call sent (`confirmation`, `event`, `checkpoint`, `caught_up`) and the status it ended with. */
async function subscribe(port: number, filter: StreamsPb.ReadReq.Options.FilterOptions) {
  const client = new StreamsClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const options = new streamsPb.ReadReq.Options()
    .setAll(new streamsPb.ReadReq.Options.AllOptions().setStart(new sharedPb.Empty()))
    .setSubscription(new streamsPb.ReadReq.Options.SubscriptionOptions())
    .setFilter(filter.setStreamIdentifier(new Filter.Expression().setPrefixList(['order-'])))
    .setUuidOption(new streamsPb.ReadReq.Options.UUIDOption().setString(new sharedPb.Empty()));
  const call = client.read(new streamsPb.ReadReq().setOptions(options));
  const sent: string[] = [];
  try {
    for await (const response of call as AsyncIterable<StreamsPb.ReadResp>) {
      if (response.hasConfirmation()) sent.push('confirmation');
      if (response.hasEvent()) sent.push('event');
      if (response.hasCheckpoint()) sent.push('checkpoint');
      if (response.hasCaughtUp()) return { sent: [...sent, 'caught_up'], status: undefined };
    }
    return { sent, status: undefined };
  } catch (error) {
    const { code, details } = error as { code: number; details: string };
    return { sent, status: { code, details } };
  } finally {
    call.cancel();
    client.close();
  }
}

describe('filtered $all subscription options', () => {
  const esdb = connectedEmulator();

  beforeAll(async () => {
    await esdb.client.appendToStream(streamName(), event());
  });

  it('refuses a checkpoint interval multiplier of 0 before confirming: UNKNOWN, as an exception escaping the handler', async () => {
    const filter = new Filter().setCount(new sharedPb.Empty()).setCheckpointintervalmultiplier(0);
    expect(await subscribe(esdb.emulator.port, filter)).toEqual({
      sent: [],
      status: { code: grpc.status.UNKNOWN, details: 'Exception was thrown by handler.' },
    });
  });

  it('refuses a filter without a window as an invalid argument naming the enum case', async () => {
    const filter = new Filter().setCheckpointintervalmultiplier(1);
    expect(await subscribe(esdb.emulator.port, filter)).toEqual({
      sent: [],
      status: {
        code: grpc.status.INVALID_ARGUMENT,
        details: "'None' is not a valid EventStore.Client.Streams.ReadReq+Types+Options+Types+FilterOptions+WindowOneofCase",
      },
    });
  });

  it('confirms a count window with a multiplier of 2^27, then fails catching up: 32 × 2^27 wraps to an interval of 0', async () => {
    // More than one page (32 considered events) to catch up on, so the interval is checked before the end of the log.
    const stream = streamName();
    await esdb.client.appendToStream(
      stream,
      Array.from({ length: 40 }, () => event()),
    );
    const filter = new Filter().setCount(new sharedPb.Empty()).setCheckpointintervalmultiplier(2 ** 27);
    const { sent, status } = await subscribe(esdb.emulator.port, filter);
    // The first page's matches go out before its interval check (`CatchUp`), then the call fails; nothing more.
    expect(status).toEqual({ code: grpc.status.UNKNOWN, details: 'Exception was thrown by handler.' });
    expect(sent[0]).toBe('confirmation');
    expect(new Set(sent.slice(1))).toEqual(new Set(['event']));
    expect(sent.length - 1).toBeLessThanOrEqual(32);
  });

  it('confirms a max window of 0, then fails catching up: the interval is 0 and the counter divides by it', async () => {
    const filter = new Filter().setMax(0).setCheckpointintervalmultiplier(1);
    expect(await subscribe(esdb.emulator.port, filter)).toEqual({
      sent: ['confirmation'],
      status: { code: grpc.status.UNKNOWN, details: 'Exception was thrown by handler.' },
    });
  });
});
