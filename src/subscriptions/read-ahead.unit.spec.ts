import type { Checkpoint, RecordedEvent, SubscriptionBatch } from '../event-store/event-store.port';
import { readAhead } from './read-ahead';

const event = (n: number) => ({ id: `e${n}`, position: `1/${n}` as Checkpoint }) as RecordedEvent;
const batch = (from: number, count: number, caughtUp = false): SubscriptionBatch => ({
  events: Array.from({ length: count }, (_, i) => event(from + i)),
  checkpoint: `1/${from + count - 1}` as Checkpoint,
  caughtUp,
});

async function* source(batches: SubscriptionBatch[]) {
  yield* batches;
}

describe('readAhead', () => {
  it('merges batches that piled up while the consumer was busy, up to the size limit', async () => {
    const merged: SubscriptionBatch[] = [];
    const reading = readAhead(source([batch(1, 3), batch(4, 3), batch(7, 3), batch(10, 3, true)]), 6);
    const first = await reading.next();
    merged.push(first.value as SubscriptionBatch);
    await new Promise((resolve) => setImmediate(resolve)); // the consumer "commits" meanwhile
    for await (const next of reading) merged.push(next);
    expect(merged.map((b) => b.events.map((e) => e.id).join(','))).toEqual(['e1,e2,e3', 'e4,e5,e6,e7,e8,e9', 'e10,e11,e12']);
    expect(merged.at(-1)).toMatchObject({ checkpoint: '1/12', caughtUp: true });
  });

  it('keeps the last checkpoint of merged batches, including event-less ones', async () => {
    const progressOnly: SubscriptionBatch = { events: [], checkpoint: '5/0' as Checkpoint, caughtUp: true };
    const reading = readAhead(source([batch(1, 2), batch(3, 1), progressOnly]), 100);
    await new Promise((resolve) => setImmediate(resolve));
    const all: SubscriptionBatch[] = [];
    for await (const next of reading) all.push(next);
    expect(all.flatMap((b) => b.events).map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
    expect(all.at(-1)).toMatchObject({ checkpoint: '5/0', caughtUp: true });
  });

  it('passes on a failure of the source', async () => {
    async function* failing() {
      yield batch(1, 1);
      throw new Error('connection lost');
    }
    const seen: SubscriptionBatch[] = [];
    await expect(
      (async () => {
        for await (const next of readAhead(failing(), 10)) seen.push(next);
      })(),
    ).rejects.toThrow('connection lost');
    expect(seen).toHaveLength(1);
  });
});
