/**
 * The checkpoints the adapter hands out, through the real client, against both server lines: 24.10.0–
 * 24.10.4 send a bogus `End` checkpoint to a filtered subscription whose first page holds no match
 * (`Enumerator.AllSubscriptionFiltered.CatchUp`, fixed in v24.10.5), and every line checkpoints page
 * starts as (commit, 0). A projection must never store a checkpoint beyond the log, and must resume
 * from (c, 0) with the event at c.
 */
import { startEsdbEmulator, type EsdbEmulator } from '../../../test/esdb-emulator';
import { testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import { decodeCheckpoint, encodeCheckpoint, type Checkpoint } from '../checkpoint';
import type { EventSubscription, RecordedEvent } from '../event-store.port';
import { EsdbEventStore } from './esdb.event-store';

/** Batches until `done` says stop; the checkpoints handed out on the way. */
async function consume(subscription: EventSubscription, done: (events: RecordedEvent[], caughtUp: boolean) => boolean) {
  const events: RecordedEvent[] = [];
  const checkpoints: Checkpoint[] = [];
  for await (const batch of subscription) {
    events.push(...batch.events);
    if (batch.checkpoint) checkpoints.push(batch.checkpoint);
    if (done(events, batch.caughtUp)) break;
  }
  await subscription.close();
  return { events, checkpoints };
}

describe.each(['24.10.4', '24.10.5'])('EsdbEventStore checkpoints on a %s server', (serverVersion) => {
  let emulator: EsdbEmulator;
  let store: EsdbEventStore;
  let category: string;

  beforeEach(async () => {
    emulator = await startEsdbEmulator({ serverVersion });
    store = EsdbEventStore.connect(emulator.connectionString);
    category = uniqueCategory();
  });

  afterEach(async () => {
    await store.close();
    await emulator.close();
  });

  describe('when a new projection starts on a fresh log whose first page holds none of its events', () => {
    it('never hands out a checkpoint beyond the log, and after a restart resumes where it was', async () => {
      for (let i = 0; i < 5; i++) await store.append(`other-${i}`, [testEvent()], 'no_stream');
      let appended = false;
      const first = await consume(store.subscribeToAll({ filter: { streamCategories: [category] } }), (events, caughtUp) => {
        if (caughtUp && !appended) {
          appended = true;
          void store.append(`${category}-1`, [testEvent()], 'no_stream');
        }
        return events.length === 1;
      });
      const [head] = await store.readAll({ direction: 'backwards', maxCount: 1 });
      const headCommit = decodeCheckpoint(head.position).major;
      for (const checkpoint of first.checkpoints) expect(decodeCheckpoint(checkpoint).major).toBeLessThanOrEqual(headCommit);

      const second = await store.append(`${category}-2`, [testEvent()], 'no_stream');
      const resumed = await consume(
        store.subscribeToAll({ after: first.checkpoints.at(-1), filter: { streamCategories: [category] } }),
        (events) => events.length === 1,
      );
      expect(resumed.events.map((e) => e.position)).toEqual([second.position]);
    });
  });

  describe("when resumed from (c, 0) where c is an event's commit position", () => {
    it('delivers the event at c first', async () => {
      const stream = `${category}-1`;
      await store.append(stream, [testEvent(), testEvent(), testEvent()], 'no_stream');
      const events = await store.readStream(stream);
      const c = decodeCheckpoint(events[1].position).major;
      const resumed = await consume(
        store.subscribeToAll({ after: encodeCheckpoint(c, 0n), filter: { streamCategories: [category] } }),
        (seen) => seen.length === 2,
      );
      expect(resumed.events.map((e) => e.id)).toEqual([events[1].id, events[2].id]);
    });
  });
});
