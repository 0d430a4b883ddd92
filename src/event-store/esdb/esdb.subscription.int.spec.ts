/**
 * The EventStoreDB client never resubscribes (esdb.md §3.4, §5.3); the adapter must. A read model fed
 * by the adapter's subscription sees the server drop the call mid-catch-up in each way a real server
 * does, and still ends up with every event exactly once, in `$all` order.
 */
import { randomUUID } from 'node:crypto';
import { startEsdbEmulator, type EsdbEmulator, type SubscriptionSnapshot } from '../../../test/esdb-emulator';
import { readCategory, testEvent, uniqueCategory } from '../../../test/contracts/test-events';
import type { Checkpoint, SubscriptionBatch } from '../event-store.port';
import { EsdbEventStore } from './esdb.event-store';

const HISTORY = 1_500;
const LIVE = 5;

/** A projection in miniature: applies each event once per delivery and stores its checkpoint. */
class ReadModel {
  readonly applied: string[] = [];
  checkpoint: Checkpoint | undefined;
  caughtUpAt: number | undefined;

  apply(batch: SubscriptionBatch): void {
    this.applied.push(...batch.events.map((e) => e.id));
    this.checkpoint = batch.checkpoint ?? this.checkpoint;
    if (batch.caughtUp && this.caughtUpAt === undefined) this.caughtUpAt = this.applied.length;
  }
}

describe('EsdbEventStore.subscribeToAll when the server drops the call mid-catch-up', () => {
  let emulator: EsdbEmulator;
  let store: EsdbEventStore;
  let category: string;

  beforeAll(async () => {
    emulator = await startEsdbEmulator();
    store = EsdbEventStore.connect(emulator.connectionString, { resubscribe: { initialDelayMs: 10, maxDelayMs: 200 } });
  });

  afterAll(async () => {
    await store.close();
    await emulator.close();
  });

  beforeEach(async () => {
    category = uniqueCategory();
    const padding = 'x'.repeat(1_200); // large enough that the history cannot sit in flow-control windows and buffers
    for (let stream = 0; stream < HISTORY / 50; stream++) {
      const events = Array.from({ length: 50 }, (_, i) => testEvent('Happened', { i, padding }));
      await store.append(`${category}-${randomUUID()}`, events, 'no_stream');
    }
  });

  const drops: Array<[string, (emulator: EsdbEmulator) => Promise<SubscriptionSnapshot[]>]> = [
    ['ends it with status OK', async (e) => e.dropSubscriptions('ok')],
    ['ends it with UNAVAILABLE', async (e) => e.dropSubscriptions('unavailable')],
    ['restarts', (e) => e.restart()],
  ];

  it.each(drops)('when the server %s, the read model still gets every event exactly once, in order', async (_how, drop) => {
    const opened = emulator.stats.subscriptionsOpened;
    const readModel = new ReadModel();
    const subscription = store.subscribeToAll({ filter: { streamCategories: [category] }, maxBatchSize: 50 });
    let dropped: Promise<SubscriptionSnapshot[]> | undefined;
    let liveWritten = false;
    for await (const batch of subscription) {
      readModel.apply(batch);
      // Not awaited: a server going away still flushes what it sent while the consumer keeps reading.
      dropped ??= drop(emulator);
      if (readModel.caughtUpAt !== undefined && !liveWritten) {
        liveWritten = true;
        await store.append(
          `${category}-live`,
          Array.from({ length: LIVE }, () => testEvent()),
          'any',
        );
      }
      if (readModel.applied.length >= HISTORY + LIVE) break;
    }
    await subscription.close();

    const [snapshot] = await dropped!;
    expect(snapshot).toEqual({ caughtUp: false, sent: expect.any(Number) });
    expect(snapshot.sent).toBeLessThan(HISTORY);
    expect(emulator.stats.subscriptionsOpened).toBe(opened + 2);
    const history = await readCategory(store, category);
    expect(readModel.applied).toEqual(history.map((e) => e.id));
    expect(readModel.caughtUpAt).toBe(HISTORY);
    expect(readModel.checkpoint).toBe(history.at(-1)!.position);
  });
});
