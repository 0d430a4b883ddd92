/**
 * Stream subscriptions against deleted and truncated streams, through the real client: the catch-up is a
 * stream read (`Enumerator.StreamSubscription.CatchUp`, stream-catch-up.ts) and a tombstone ends the
 * subscription (`SubscriptionsService.Handle(SubscribeToStream)`, `StreamSubscription.SendEventToSubscription`),
 * KurrentDB v24.10.5.
 */
import { StreamDeletedError, type StreamSubscription } from '@eventstore/db-client';
import { connectedEmulator, event, streamName } from './fidelity-helpers';

interface Seen {
  confirmed: boolean;
  events: Array<{ revision: bigint; type: string }>;
  error?: Error;
}

/** Everything a subscription delivers until it ends with an error or has delivered `count` events. */
async function collect(subscription: StreamSubscription, count: number, onCaughtUp?: () => Promise<unknown>): Promise<Seen> {
  const seen: Seen = { confirmed: false, events: [] };
  subscription.on('confirmation', () => (seen.confirmed = true));
  if (onCaughtUp) subscription.once('caughtUp', () => void onCaughtUp());
  try {
    for await (const resolved of subscription) {
      seen.events.push({ revision: resolved.event!.revision, type: resolved.event!.type });
      if (seen.events.length === count) break;
    }
  } catch (error) {
    seen.error = error as Error;
  }
  await subscription.unsubscribe();
  return seen;
}

describe('stream subscriptions', () => {
  const esdb = connectedEmulator();
  let stream: string;
  beforeEach(() => (stream = streamName()));

  it.each([
    ['$tb', { truncateBefore: 2 }],
    ['$maxCount', { maxCount: 2 }],
  ])('catch up on what a read of the stream returns: %s hides the older events', async (_rule, metadata) => {
    await esdb.client.appendToStream(stream, [event(), event(), event(), event()]);
    await esdb.client.setStreamMetadata(stream, metadata);
    const seen = await collect(esdb.client.subscribeToStream(stream), 2);
    expect(seen.events.map((e) => e.revision)).toEqual([2n, 3n]);
  });

  it("send nothing of a soft-deleted stream's old events, then its re-creation live", async () => {
    await esdb.client.appendToStream(stream, [event(), event()]);
    await esdb.client.deleteStream(stream);
    const seen = await collect(esdb.client.subscribeToStream(stream), 1, () => esdb.client.appendToStream(stream, event()));
    expect(seen.events).toEqual([{ revision: 2n, type: 'SomethingHappened' }]);
  });

  it('refuse a tombstoned stream with StreamDeleted before any confirmation or event', async () => {
    await esdb.client.appendToStream(stream, [event(), event()]);
    await esdb.client.tombstoneStream(stream);
    const seen = await collect(esdb.client.subscribeToStream(stream), 3);
    expect(seen).toMatchObject({ confirmed: false, events: [] });
    expect(seen.error).toBeInstanceOf(StreamDeletedError);
  });

  it('send the tombstone of a stream deleted while live, then end with StreamDeleted', async () => {
    await esdb.client.appendToStream(stream, event());
    const seen = await collect(esdb.client.subscribeToStream(stream), 3, () => esdb.client.tombstoneStream(stream));
    expect(seen.events).toEqual([
      { revision: 0n, type: 'SomethingHappened' },
      { revision: 2n ** 63n - 1n, type: '$streamDeleted' },
    ]);
    expect(seen.error).toBeInstanceOf(StreamDeletedError);
  });
});
