/**
 * The process's one read of the log, fanned out to its lanes (log-fan-out.ts), on real PostgreSQL: two
 * lanes fed by one read both reach the tip; a lane that stops taking batches (its members busy) does
 * not hold the other, is let go to a read of its own, catches up on it without a gap or a repeat, and
 * rejoins the shared read.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore, EventSubscription, SubscribeOptions, SubscriptionBatch } from '../event-store/event-store.port';
import { testEvents, uniqueCategory } from '../../test/contracts/test-events';
import { createProjectionDatabase, waitFor, type ProjectionDatabase } from '../../test/projections/projection-harness';
import { unionFilter } from './event-filter';
import { LogFanOut } from './log-fan-out';

let db: ProjectionDatabase;
const closing: EventSubscription[] = [];

beforeAll(async () => {
  db = await createProjectionDatabase('log_fan_out');
});
afterEach(async () => {
  await Promise.all(closing.splice(0).map((subscription) => subscription.close()));
});
afterAll(() => db.close());

/** The store, counting the subscriptions opened on it and those still open. */
function countingStore(store: EventStore) {
  const counts = { opened: 0, open: 0, filters: [] as Array<SubscribeOptions['filter']> };
  const counted: Pick<EventStore, 'subscribeToAll'> = {
    subscribeToAll(options?: SubscribeOptions): EventSubscription {
      const subscription = store.subscribeToAll(options);
      counts.opened++;
      counts.filters.push(options?.filter);
      counts.open++;
      let closed = false;
      return {
        [Symbol.asyncIterator]: () => subscription[Symbol.asyncIterator](),
        close: async () => {
          if (!closed) counts.open--;
          closed = true;
          await subscription.close();
        },
      };
    },
  };
  return { store: counted, counts };
}

/**
 * A lane as the test drives it: it takes a batch only when asked, and remembers the ids of the category's
 * events (`seen`) and the streams of every event its batches brought (`brought`).
 */
function lane(fanOut: LogFanOut, category: string, filter?: SubscribeOptions['filter']) {
  const subscription = fanOut.subscribeToAll({ filter });
  closing.push(subscription);
  const iterator = subscription[Symbol.asyncIterator]();
  const seen: string[] = [];
  const brought: string[] = [];
  let pending: Promise<IteratorResult<SubscriptionBatch>> | undefined;
  /** Starts taking the next batch (the first call also puts the lane on the read). */
  const ask = () => (pending ??= iterator.next());
  return {
    subscription,
    seen,
    brought,
    ask,
    /** Takes batches until `count` events of the category have come. */
    async takeUntil(count: number) {
      while (seen.length < count) {
        const step = await ask();
        pending = undefined;
        if (step.done) throw new Error('the lane ended');
        brought.push(...step.value.events.map((event) => event.stream));
        seen.push(...step.value.events.filter((event) => event.stream.startsWith(`${category}-`)).map((event) => event.id));
      }
    },
  };
}

async function appendInOnes(category: string, count: number, type?: string): Promise<string[]> {
  const ids: string[] = [];
  for (const event of testEvents(count, type)) {
    await db.store.append(`${category}-${randomUUID()}`, [event], 'no_stream');
    ids.push(event.id);
  }
  return ids;
}

describe('LogFanOut', () => {
  it('feeds two lanes from one read, and both reach the tip', async () => {
    const category = uniqueCategory();
    const { store, counts } = countingStore(db.store);
    const fanOut = new LogFanOut(store, { maxBatchSize: 10 });
    const [a, b] = [lane(fanOut, category), lane(fanOut, category)];
    const taking = Promise.all([a.takeUntil(25), b.takeUntil(25)]);
    const appended = await appendInOnes(category, 25);

    await taking;
    expect(a.seen).toEqual(appended);
    expect(b.seen).toEqual(appended);
    expect(counts.opened).toBe(1);
    expect(fanOut.lanes).toEqual({ shared: 2, own: 0 });
  });

  it('lets a lane that stops taking batches go to a read of its own, without holding the other, and takes it back once caught up', async () => {
    const category = uniqueCategory();
    const { store, counts } = countingStore(db.store);
    const fanOut = new LogFanOut(store, { maxBatchSize: 10, maxQueuedEvents: 20 });
    const [busy, prompt] = [lane(fanOut, category), lane(fanOut, category)];
    void busy.ask(); // on the read, then it takes nothing more while the events come
    const taking = prompt.takeUntil(60);
    const appended = await appendInOnes(category, 60);

    await taking;
    expect(prompt.seen).toEqual(appended);
    await waitFor('the busy lane let go from the shared read', async () => fanOut.lanes.own === 1);
    expect(fanOut.lanes).toEqual({ shared: 1, own: 1 });

    await busy.takeUntil(60);
    expect(busy.seen).toEqual(appended); // every event once, in order: no gap where it was let go
    expect(counts.opened).toBe(2); // the shared read and the busy lane's own read
    expect(fanOut.lanes).toEqual({ shared: 2, own: 0 });
    expect(counts.open).toBe(1); // its own read closed as it rejoined

    const takingMore = Promise.all([busy.takeUntil(65), prompt.takeUntil(65)]);
    const more = await appendInOnes(category, 5);
    await takingMore;
    expect(busy.seen.slice(60)).toEqual(more);
    expect(prompt.seen.slice(60)).toEqual(more);
    expect(counts.opened).toBe(2);
  });

  it('starts a lane that subscribes behind the shared read on a read of its own, then takes it onto the shared one', async () => {
    const category = uniqueCategory();
    const { store, counts } = countingStore(db.store);
    const fanOut = new LogFanOut(store, { maxBatchSize: 10 });
    const first = lane(fanOut, category);
    const taking = first.takeUntil(15);
    const appended = await appendInOnes(category, 15);
    await taking;

    const late = lane(fanOut, category); // from the start of history, behind the shared read
    await late.takeUntil(15);
    expect(late.seen).toEqual(appended);
    expect(counts.opened).toBe(2);
    await waitFor('the late lane on the shared read', async () => counts.open === 1 && fanOut.lanes.shared === 2);

    const takingMore = Promise.all([late.takeUntil(18), first.takeUntil(18)]);
    const more = await appendInOnes(category, 3);
    await takingMore;
    expect(late.seen.slice(15)).toEqual(more);
    expect(counts.opened).toBe(2);
  });

  it('narrows the shared read to what the lanes on it want while a lane that wants more reads on its own, and widens it when that lane rejoins', async () => {
    const [orders, contacts] = [uniqueCategory(), uniqueCategory()];
    const { store, counts } = countingStore(db.store);
    const fanOut = new LogFanOut(store, { maxBatchSize: 10, maxQueuedEvents: 20 });
    const everything = lane(fanOut, contacts); // e.g. the default lane: the audit chain wants every event
    const payments = lane(fanOut, orders, { streamCategories: [orders] });
    void everything.ask(); // on the read, then busy while a bulk import comes
    const taking = payments.takeUntil(5);
    const imported = await appendInOnes(contacts, 40);
    const paid = await appendInOnes(orders, 5);

    await taking;
    expect(payments.seen).toEqual(paid);
    await waitFor('the busy lane let go from the shared read', async () => fanOut.lanes.own === 1);
    expect(counts.filters).toContainEqual({ streamCategories: [orders] });
    const broughtWhileAway = payments.brought.length;

    const takingMore = payments.takeUntil(8);
    const paidMore = await appendInOnes(orders, 3);
    await appendInOnes(contacts, 10);
    await takingMore;
    // Once narrowed, the shared read fetched none of the contact events for the payments lane alone.
    expect(payments.brought.slice(broughtWhileAway).every((stream) => stream.startsWith(`${orders}-`))).toBe(true);
    expect(payments.seen).toEqual([...paid, ...paidMore]);

    await everything.takeUntil(50);
    expect(everything.seen).toEqual([...imported, ...(await idsOf(contacts)).slice(40)]);
    await waitFor('the busy lane back on the shared read', async () => fanOut.lanes.shared === 2 && counts.open === 1);
    expect(counts.filters.at(-1)).toEqual({}); // widened again for the lane that wants every event

    const takingLast = Promise.all([everything.takeUntil(52), payments.takeUntil(9)]);
    const lastContacts = await appendInOnes(contacts, 2);
    const lastPaid = await appendInOnes(orders, 1);
    await takingLast;
    expect(everything.seen.slice(50)).toEqual(lastContacts);
    expect(payments.seen.slice(8)).toEqual(lastPaid);
  });
});

describe('LogFanOut with lanes that want different dimensions', () => {
  it('fetches on the shared read exactly what some lane wants, and narrows it again when a lane leaves', async () => {
    const [orders, imports, others] = [uniqueCategory(), uniqueCategory(), uniqueCategory()];
    const { store, counts } = countingStore(db.store);
    const fanOut = new LogFanOut(store, { maxBatchSize: 10 });
    const filters = {
      payments: { streamCategories: [orders] },
      runs: { streamCategories: [imports], eventTypes: ['ImportRunStarted'] },
      other: { streamCategories: [others] },
    };
    const [payments, runs, other] = [
      lane(fanOut, orders, filters.payments),
      lane(fanOut, imports, filters.runs),
      lane(fanOut, others, filters.other),
    ];
    for (const l of [payments, runs, other]) void l.ask();
    await waitFor('three lanes on the shared read', async () => fanOut.lanes.shared === 3);
    const isRecord = (stream: string) => records.includes(stream);
    const records: string[] = [];
    const streamsOf = async (ids: string[]) =>
      (await db.store.readAll({ maxCount: 10_000 })).filter((e) => ids.includes(e.id)).map((e) => e.stream);

    const taking = Promise.all([payments.takeUntil(2), runs.takeUntil(2), other.takeUntil(1)]);
    records.push(...(await streamsOf(await appendInOnes(imports, 20, 'ImportRecordProcessed'))));
    const [paid, started, elsewhere] = [
      await appendInOnes(orders, 2),
      await appendInOnes(imports, 2, 'ImportRunStarted'),
      await appendInOnes(others, 1),
    ];
    await taking;
    expect([payments.seen, runs.seen, other.seen]).toEqual([paid, started, elsewhere]);
    expect(counts.filters.at(-1)).toEqual(unionFilter(Object.values(filters)));
    expect([...payments.brought, ...runs.brought].filter(isRecord)).toEqual([]);

    await other.subscription.close();
    const narrower = unionFilter([filters.payments, filters.runs]);
    expect(narrower.anyOf).toHaveLength(2);
    await waitFor(
      'the shared read narrowed to the two lanes left',
      async () => JSON.stringify(counts.filters.at(-1)) === JSON.stringify(narrower),
    );
    const broughtBefore = [payments.brought.length, runs.brought.length];

    const takingMore = Promise.all([payments.takeUntil(3), runs.takeUntil(3)]);
    records.push(...(await streamsOf(await appendInOnes(imports, 20, 'ImportRecordProcessed'))));
    const unwanted = await streamsOf(await appendInOnes(others, 5));
    const [paidMore, startedMore] = [await appendInOnes(orders, 1), await appendInOnes(imports, 1, 'ImportRunStarted')];
    await takingMore;
    expect([payments.seen.slice(2), runs.seen.slice(2)]).toEqual([paidMore, startedMore]);
    // (Batches read before the narrowing may still bring the other lane's earlier event.)
    const broughtAfter = [...payments.brought.slice(broughtBefore[0]), ...runs.brought.slice(broughtBefore[1])];
    expect(broughtAfter.filter((stream) => isRecord(stream) || unwanted.includes(stream))).toEqual([]);
  });
});

/** The ids of a category's events in the log's order. */
async function idsOf(category: string): Promise<string[]> {
  const events = await db.store.readAll({ maxCount: 10_000 });
  return events.filter((event) => event.stream.startsWith(`${category}-`)).map((event) => event.id);
}
