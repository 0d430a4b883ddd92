/**
 * Catch-up subscriptions (esdb.md §3.4): the message order on the wire, exclusive starts, filtered
 * checkpoints, and what the real client does when the server ends the call each way.
 */
import {
  CancelledError,
  START,
  UnavailableError,
  streamNameFilter,
  type AllStreamSubscription,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { connectedEmulator, event, failureOf, readAllEvents, streamName } from './fidelity-helpers';
import { wireMessages, type WireStart } from './wire-subscription';

describe('subscriptions', () => {
  const esdb = connectedEmulator();

  const wire = (prefix: string, from: WireStart, until: (kinds: string[]) => boolean) =>
    wireMessages(esdb.emulator.port, prefix, from, until);

  it('confirms, catches up, checkpoints, says caught_up, then sends live events', async () => {
    const category = `cat${Date.now()}`;
    const stream = streamName(category);
    await esdb.client.appendToStream(stream, [event(), event()]);
    let appendedLive = false;
    const kinds = await wire(`${category}-`, 'start', (seen) => {
      if (seen.at(-1) === 'caught_up' && !appendedLive) {
        appendedLive = true;
        void esdb.client.appendToStream(stream, event());
      }
      return seen.filter((k) => k.startsWith('event')).length === 3;
    });
    const [first, second] = (await readAllEvents(esdb.client))
      .filter((r) => r.event?.streamId === stream)
      .map((r) => `event@${r.event!.position!.commit}`);
    expect(kinds.slice(0, 5)).toEqual(['confirmation', first, second, expect.stringMatching(/^checkpoint@/), 'caught_up']);
    expect(kinds[5]).toMatch(/^event@/);
  });

  it('starts after the given position, while readAll starts at it and readAll backwards before it', async () => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, [event(), event(), event()]);
    const mine = (await readAllEvents(esdb.client)).filter((r) => r.event?.streamId === stream);
    const middle = mine[1].event!.position!;
    const subscription = esdb.client.subscribeToAll({ fromPosition: middle });
    const next = (await subscription[Symbol.asyncIterator]().next()).value;
    await subscription.unsubscribe();
    expect(next.event.id).toBe(mine[2].event!.id);
    const ids = async (read: AsyncIterable<ResolvedEvent>) => {
      const found: string[] = [];
      for await (const resolved of read) found.push(resolved.event!.id);
      return found;
    };
    expect(await ids(esdb.client.readAll({ fromPosition: middle, maxCount: 1 }))).toEqual([mine[1].event!.id]);
    expect(await ids(esdb.client.readAll({ fromPosition: middle, maxCount: 1, direction: 'backwards' }))).toEqual([mine[0].event!.id]);
  });

  it('subscribes to one stream after the given revision, then live', async () => {
    const stream = streamName();
    await esdb.client.appendToStream(stream, [event(), event(), event()]);
    const revisions: bigint[] = [];
    const subscription = esdb.client.subscribeToStream(stream, { fromRevision: 1n });
    for await (const resolved of subscription) {
      revisions.push(resolved.event!.revision);
      if (revisions.length === 1) await esdb.client.appendToStream(stream, event());
      if (revisions.length === 2) break;
    }
    await subscription.unsubscribe();
    expect(revisions).toEqual([2n, 3n]);
  });

  it('checkpoints a filtered subscription over foreign events every 32 considered events, never backwards', async () => {
    const category = `quiet${Date.now()}`;
    const before = (await readAllEvents(esdb.client)).at(-1)!.event!.position!;
    for (let i = 0; i < 5; i++)
      await esdb.client.appendToStream(
        streamName('noise'),
        Array.from({ length: 20 }, () => event()),
      );
    const kinds = await wire(`${category}-`, before, (seen) => seen.includes('caught_up'));
    const checkpoints = kinds.filter((k) => k.startsWith('checkpoint@')).map((k) => BigInt(k.slice('checkpoint@'.length).split('/')[0]));
    expect(kinds.filter((k) => k.startsWith('event'))).toEqual([]);
    expect(checkpoints.length).toBeGreaterThanOrEqual(3); // after 32, 64 and 96 of the 100, then at the end of catch-up
    expect([...checkpoints].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(checkpoints);
    // The first page starts at the given position, and a page start is what the server checkpoints.
    expect(checkpoints[0]).toBeGreaterThanOrEqual(before.commit);
  });

  describe('when the server ends the call', () => {
    async function subscribeAndDrop(kind: 'ok' | 'unavailable' | 'cancelled' | 'restart'): Promise<{ error: Error; states: unknown }> {
      await esdb.client.appendToStream(streamName(), event());
      const subscription: AllStreamSubscription = esdb.client.subscribeToAll({
        fromPosition: START,
        filter: streamNameFilter({ prefixes: ['order-'] }),
      });
      const iterator = subscription[Symbol.asyncIterator]();
      await iterator.next();
      const states = kind === 'restart' ? await esdb.emulator.restart() : esdb.emulator.dropSubscriptions(kind);
      const error = await failureOf(
        (async () => {
          for (let step = await iterator.next(); !step.done; step = await iterator.next());
          throw new Error('ended cleanly');
        })(),
      );
      return { error, states };
    }

    it('with status OK, the client just ends the iteration, without an error', async () => {
      const { error, states } = await subscribeAndDrop('ok');
      expect(error.message).toBe('ended cleanly');
      expect(states).toEqual([expect.objectContaining({ sent: expect.any(Number) })]);
    });

    it('with UNAVAILABLE, the client raises UnavailableError', async () => {
      expect((await subscribeAndDrop('unavailable')).error).toBeInstanceOf(UnavailableError);
    });

    it('with CANCELLED, the client raises CancelledError', async () => {
      expect((await subscribeAndDrop('cancelled')).error).toBeInstanceOf(CancelledError);
    });

    it('on a restart, the client raises UnavailableError and the next call reaches the server again', async () => {
      expect((await subscribeAndDrop('restart')).error).toBeInstanceOf(UnavailableError);
      expect((await esdb.client.appendToStream(streamName(), event())).success).toBe(true);
    });
  });
});
