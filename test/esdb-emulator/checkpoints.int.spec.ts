/**
 * Filtered `$all` checkpoints, row by row against the server's own source (tags v24.10.4 and v24.10.5,
 * `src/EventStore.Core/Services/Transport/Enumerators/Enumerator.AllSubscriptionFiltered.cs`, functions
 * `MainLoop`, `CatchUp`, `SendCheckpointToSubscription`; pages from `ReaderIndex/AllReader.cs`
 * `ReadAllEventsForwardInternal`). Each row runs on a fresh log, so "the first page" is known: the
 * emulator starts without the records a new server writes (`systemEvents: false`, system-events.ts),
 * since the hidden `$epoch-information` record counts toward a page but not toward `readAll`.
 */
import { streamNameFilter } from '@eventstore/db-client';
import { connectedEmulator, event, readAllEvents, streamName } from './fidelity-helpers';
import { wireMessages } from './wire-subscription';

const END = (2n ** 64n - 1n).toString();
const untilCaughtUp = (kinds: string[]) => kinds.includes('caught_up');

describe('filtered $all checkpoints', () => {
  describe('on a 24.10.4 server', () => {
    const esdb = connectedEmulator({ serverVersion: '24.10.4', systemEvents: false });

    it('sends End as the checkpoint when the first page, shorter than 32 events, holds no matching event', async () => {
      for (let i = 0; i < 5; i++) await esdb.client.appendToStream(streamName('noise'), event());
      const kinds = await wireMessages(esdb.emulator.port, 'order-', 'start', untilCaughtUp);
      expect(kinds).toEqual(['confirmation', `checkpoint@${END}/${END}`, 'caught_up']);
    });

    it('checkpoints the start of a page, with prepare position 0, when the interval is reached over foreign events', async () => {
      await esdb.client.appendToStream(
        streamName('noise'),
        Array.from({ length: 64 }, () => event()),
      );
      const all = await readAllEvents(esdb.client);
      const kinds = await wireMessages(esdb.emulator.port, 'order-', 'start', untilCaughtUp);
      // Pages of 32 considered events: page 1 starts at (0, 0), page 2 at (the 33rd event, 0), and each
      // reaches the interval; the last page reaches the end with the checkpoint unchanged, which is dropped.
      expect(kinds).toEqual(['confirmation', 'checkpoint@0/0', `checkpoint@${all[32].event!.position!.commit}/0`, 'caught_up']);
    });
  });

  describe('on a 24.10.5 server', () => {
    const esdb = connectedEmulator({ serverVersion: '24.10.5', systemEvents: false });

    it('sends (0, 0) instead of End when the first page holds no matching event', async () => {
      for (let i = 0; i < 5; i++) await esdb.client.appendToStream(streamName('noise'), event());
      const kinds = await wireMessages(esdb.emulator.port, 'order-', 'start', untilCaughtUp);
      expect(kinds).toEqual(['confirmation', 'checkpoint@0/0', 'caught_up']);
    });

    it('moves the checkpoint to each page start, so the end of catch-up checkpoints the last page start', async () => {
      await esdb.client.appendToStream(
        streamName('noise'),
        Array.from({ length: 40 }, () => event()),
      );
      const all = await readAllEvents(esdb.client);
      const kinds = await wireMessages(esdb.emulator.port, 'order-', 'start', untilCaughtUp);
      const secondPage = `checkpoint@${all[32].event!.position!.commit}/0`;
      expect(kinds).toEqual(['confirmation', 'checkpoint@0/0', secondPage, 'caught_up']);
    });
  });

  describe.each(['24.10.4', '24.10.5'])('on either server line (%s)', (serverVersion) => {
    const esdb = connectedEmulator({ serverVersion, systemEvents: false });

    it('sends no checkpoint when starting at the end', async () => {
      await esdb.client.appendToStream(streamName('noise'), [event(), event()]);
      const last = (await readAllEvents(esdb.client)).at(-1)!.event!.position!;
      expect(await wireMessages(esdb.emulator.port, 'order-', 'end', untilCaughtUp)).toEqual(['confirmation', 'caught_up']);
      expect(await wireMessages(esdb.emulator.port, 'order-', last, untilCaughtUp)).toEqual(['confirmation', 'caught_up']);
    });

    it('compares full (commit, prepare) positions: a start at (c, 0) delivers the event at c, a start at (c, c) does not', async () => {
      const stream = streamName();
      await esdb.client.appendToStream(stream, [event(), event(), event()]);
      const mine = (await readAllEvents(esdb.client)).filter((r) => r.event?.streamId === stream).map((r) => r.event!);
      const firstAfter = async (commit: bigint, prepare: bigint) => {
        const subscription = esdb.client.subscribeToAll({
          fromPosition: { commit, prepare },
          filter: streamNameFilter({ prefixes: [stream] }),
        });
        const next = (await subscription[Symbol.asyncIterator]().next()).value;
        await subscription.unsubscribe();
        return next.event.id;
      };
      const middle = mine[1].position!.commit;
      expect(await firstAfter(middle, 0n)).toBe(mine[1].id);
      expect(await firstAfter(middle, middle)).toBe(mine[2].id);
    });
  });
});
