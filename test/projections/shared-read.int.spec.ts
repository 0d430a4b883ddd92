/**
 * The shared live read (projection-group.ts): once caught up, every projection of a lane rides one
 * subscription; a projection whose batch fails leaves it, and a poison event stops that projection
 * alone — never skipped, never holding back the others — until it is fixed and rejoins.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore, EventSubscription, SubscribeOptions } from '../../src/event-store/event-store.port';
import { readVersions } from '../../src/subscriptions/checkpoint-store';
import { compareCheckpoints } from '../../src/event-store/checkpoint';
import type { Projection } from '../../src/subscriptions/projection';
import { readModelProjection } from '../../src/subscriptions/read-models/read-model.projection';
import { verifyReadModel } from '../../src/subscriptions/read-models/verify';
import { startProjections, type RunningProjections } from '../../src/subscriptions/start-projections';
import { PROJECTION_LANES, READ_MODELS, REACTORS } from '../harness/projection-catalogue';
import { testEvent } from '../contracts/test-events';
import { LiveWriter } from './live-writer';
import { createProjectionDatabase, waitFor, waitUntilCaughtUp, type ProjectionDatabase } from './projection-harness';

/** The store as the runner sees it, counting the subscriptions it holds open. */
function countingSubscriptions(store: EventStore): { store: EventStore; open: () => number } {
  let open = 0;
  const counted = Object.create(store) as EventStore;
  counted.subscribeToAll = (options?: SubscribeOptions): EventSubscription => {
    const subscription = store.subscribeToAll(options);
    open++;
    let closed = false;
    return {
      [Symbol.asyncIterator]: () => subscription[Symbol.asyncIterator](),
      close: async () => {
        if (!closed) open--;
        closed = true;
        await subscription.close();
      },
    };
  };
  return { store: counted, open: () => open };
}

describe('The shared live read', () => {
  let db: ProjectionDatabase;
  let running: RunningProjections | undefined;

  beforeAll(async () => {
    db = await createProjectionDatabase('shared_read');
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });
  afterAll(async () => {
    await db.close();
  });

  it('feeds every caught-up projection from one subscription', async () => {
    const all = [...READ_MODELS.map(readModelProjection), ...REACTORS];
    const writer = new LiveWriter(db.store, 11);
    await writer.appendCount(600);
    const counting = countingSubscriptions(db.store);
    running = await startProjections({ store: counting.store, pool: db.pool, readModels: READ_MODELS, reactors: REACTORS });
    await waitUntilCaughtUp(db.store, db.pool, all);
    await writer.appendCount(400);
    await waitUntilCaughtUp(db.store, db.pool, all);

    expect(running.statuses.map((s) => s.state)).toEqual(all.map(() => 'active'));
    expect(counting.open()).toBe(1);
    for (const model of READ_MODELS) {
      expect({ name: model.name, differences: (await verifyReadModel(db.store, db.pool, model)).differences.slice(0, 3) }).toEqual({
        name: model.name,
        differences: [],
      });
    }
  });

  it("feeds each of the features' lanes from the process's one subscription", async () => {
    const all = [...READ_MODELS.map(readModelProjection), ...REACTORS];
    const counting = countingSubscriptions(db.store);
    running = await startProjections({
      store: counting.store,
      pool: db.pool,
      readModels: READ_MODELS,
      reactors: REACTORS,
      lanes: PROJECTION_LANES,
    });
    await new LiveWriter(db.store, 13).appendCount(200);
    await waitUntilCaughtUp(db.store, db.pool, all);
    await waitFor('every projection on a shared read', async () =>
      running!.statuses.every((s) => s.state === 'active' && s.read === 'shared'),
    );

    // The payments lane and the default one (contacts, the audit chain), both fed by the process's one read (log-fan-out.ts).
    expect(counting.open()).toBe(1);
  });

  it("commits every member's part of a batch in one transaction", async () => {
    const seenBy = (name: string): Projection => ({ name, kind: 'reactor', filter: {}, handle: async () => undefined });
    const pair = [seenBy('test_together_a'), seenBy('test_together_b')];
    const counting = countingSubscriptions(db.store);
    running = await startProjections({ store: counting.store, pool: db.pool, readModels: [], reactors: pair });
    await db.store.append(`together-${randomUUID()}`, [testEvent()], 'no_stream');
    await waitUntilCaughtUp(db.store, db.pool, pair);
    // Seated on the group, not merely done with their own reads: until the second one is seated, the
    // group's read carries the first one alone and would commit the next event for it alone.
    await waitFor(
      'both on the shared read',
      async () => counting.open() === 1 && running!.statuses.every((s) => s.state === 'active' && s.read === 'shared'),
    );

    const { position } = await db.store.append(`together-${randomUUID()}`, [testEvent()], 'no_stream');
    // Past this very event: "caught up" only looks at settled history, and while another test file's
    // transaction is open in the cluster the event is not settled yet, so both checkpoints could still
    // be at the previous event, each written by its own catch-up.
    await waitFor('both checkpoints past the event', async () => {
      const stored = await Promise.all(pair.map(async (p) => (await readVersions(db.pool, p.name))[0]?.checkpoint));
      return stored.every((checkpoint) => checkpoint !== undefined && checkpoint !== null && compareCheckpoints(checkpoint, position) >= 0);
    });
    // A row's xmin is the transaction that wrote it: one batch, one transaction for both checkpoints.
    const { rows } = await db.pool.query(`SELECT DISTINCT xmin::text FROM projection_checkpoints WHERE name = ANY($1)`, [
      pair.map((p) => p.name),
    ]);
    expect(rows).toHaveLength(1);
  });

  it('stops only the projection a poison event breaks, never skips the event, and takes it back once fixed', async () => {
    const poisonStream = `poison-${randomUUID()}`;
    let poisoned = true;
    const handled: string[] = [];
    const fragile: Projection = {
      name: 'test_fragile_reactor',
      kind: 'reactor',
      filter: {},
      async handle(events) {
        if (poisoned && events.some((e) => e.stream === poisonStream)) throw new Error('cannot handle the poison event');
        handled.push(...events.filter((e) => e.stream === poisonStream).map((e) => e.id));
      },
    };
    const orders = READ_MODELS.find((m) => m.name === 'orders')!;
    const counting = countingSubscriptions(db.store);
    running = await startProjections({
      store: counting.store,
      pool: db.pool,
      readModels: [orders],
      reactors: [fragile],
      retryDelayMs: { initial: 20, max: 100 },
    });
    const healthy = [readModelProjection(orders)];
    const writer = new LiveWriter(db.store, 12);
    await writer.appendCount(100);
    await waitUntilCaughtUp(db.store, db.pool, [...healthy, fragile]);

    const poison = await db.store.append(poisonStream, [testEvent('Poison')], 'no_stream');
    await writer.appendCount(300);
    await waitUntilCaughtUp(db.store, db.pool, healthy);
    await waitFor(
      'the fragile projection to be retrying',
      async () => running!.statuses.find((s) => s.name === fragile.name)?.state === 'retrying',
    );

    const stored = (await readVersions(db.pool, fragile.name))[0];
    expect(stored.checkpoint && compareCheckpoints(stored.checkpoint, poison.position)).toBeLessThan(0);
    expect(running.statuses.find((s) => s.name === fragile.name)?.lastError).toContain('poison');
    expect((await verifyReadModel(db.store, db.pool, orders)).differences).toEqual([]);
    expect(handled).toEqual([]);

    poisoned = false;
    await writer.appendCount(50);
    await waitUntilCaughtUp(db.store, db.pool, [...healthy, fragile]);
    await waitFor(
      'both projections back on one read',
      async () => counting.open() === 1 && running!.statuses.every((s) => s.state === 'active' && s.read === 'shared'),
    );
    expect(handled).toHaveLength(1);
  });
});
