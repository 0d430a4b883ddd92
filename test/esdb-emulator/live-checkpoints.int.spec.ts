/**
 * Live checkpoints of a filtered `$all` subscription count from its registration, not from the moment
 * it goes live. Server source (kurrent-io/KurrentDB v24.10.5): `Enumerator.AllSubscriptionFiltered.
 * MainLoop` calls `SubscribeToLive` before `CatchUp`, and `SubscriptionsService.ProcessEventCommited`
 * counts every event committed from then on, emitting `CheckpointReached` at each `window × multiplier`-th
 * into the live channel, which `GoLive` sends on when it is after what catch-up sent.
 */
import { binaryEvent } from '@eventstore/db-client';
import { connectedEmulator, event, streamName } from './fidelity-helpers';
import { wireMessages } from './wire-subscription';

/** Count window (`ReadBatchSize`) × multiplier 1, as `wireMessages` subscribes. */
const INTERVAL = 32;

describe('live checkpoints of a filtered $all subscription', () => {
  const esdb = connectedEmulator({ systemEvents: false });

  it('counts the events committed during catch-up toward the first live checkpoint', async () => {
    const category = streamName('live').replace(/-/g, '');
    // A backlog far larger than the transport's buffers: catch-up waits while the subscriber is busy.
    const big = () => binaryEvent({ type: 'Backlog', data: new Uint8Array(4_096) });
    await esdb.client.appendToStream(streamName(category), Array.from({ length: 200 }, big));
    const noise = (count: number) =>
      esdb.client.appendToStream(
        streamName('noise'),
        Array.from({ length: count }, () => event()),
      );
    const duringCatchUp = 10;
    let last = '';
    let marker = '';
    const kinds = await wireMessages(
      esdb.emulator.port,
      `${category}-`,
      'start',
      (seen) => marker !== '' && seen.includes(marker),
      async (seen) => {
        if (seen.filter((k) => k.startsWith('event@')).length === 1 && seen.at(-1)!.startsWith('event@')) await noise(duringCatchUp);
        if (seen.at(-1) !== 'caught_up') return;
        last = `${(await noise(INTERVAL - duringCatchUp)).position!.commit}`;
        marker = `event@${(await esdb.client.appendToStream(streamName(category), event())).position!.commit}`;
      },
    );
    expect(kinds.slice(kinds.indexOf('caught_up') + 1)).toEqual([`checkpoint@${last}/${last}`, marker]);
  });

  // 32 × 2^26 = 2^31: as `(int)` it is int.MinValue, ≤ 0 and not `DontReportCheckpointReached` (−1), so every live
  // event reaches it (`SubscriptionsService.ProcessEventCommited`).
  it('reaches a checkpoint at every live event when window × multiplier turns negative as an int', async () => {
    const category = streamName('wrap').replace(/-/g, '');
    const markers: string[] = [];
    const kinds = await wireMessages(
      esdb.emulator.port,
      `${category}-`,
      'end',
      (seen) => markers.length === 2 && seen.includes(`event@${markers[1]}`),
      async (seen) => {
        if (seen.at(-1) !== 'caught_up') return;
        for (let i = 0; i < 2; i++) markers.push(`${(await esdb.client.appendToStream(streamName(category), event())).position!.commit}`);
      },
      2 ** 26,
    );
    const [first, second] = markers;
    expect(kinds.slice(kinds.indexOf('caught_up') + 1)).toEqual([`event@${first}`, `checkpoint@${first}/${first}`, `event@${second}`]);
  });
});
