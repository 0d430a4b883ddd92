/**
 * `idem projections status --json`, what scripts read: one object a projection version with the table's
 * columns and the lag's figures, each said once and the kind spelled as in the table.
 */
import { ordersReadModel } from '../../../projections/orders/orders.projector';
import { cliOn } from '../../../test/harness/cli-on-database';
import { READ_MODELS, REACTORS } from '../../../test/harness/projection-catalogue';
import { waitUntilHeldBackFor, whileTransactionHeldOpen } from '../../../test/harness/held-transaction';
import { waitUntilSettled } from '../../../test/harness/settled-history';
import { LiveWriter } from '../../../test/projections/live-writer';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from '../../../test/projections/projection-harness';
import { HELD_BACK_NOTICE_SECONDS } from '../../event-store/held-back';
import { readModelProjection } from '../../subscriptions/read-models/read-model.projection';
import { startProjections } from '../../subscriptions/start-projections';

describe('idem projections status --json', () => {
  let db: ProjectionDatabase;
  beforeAll(async () => {
    db = await createProjectionDatabase('projections_status_json');
    await new LiveWriter(db.store, 3).appendCount(40);
    const live = await startProjections({ store: db.store, pool: db.pool, readModels: [ordersReadModel], reactors: [] });
    try {
      await waitUntilCaughtUp(db.store, db.pool, [readModelProjection(ordersReadModel)]);
    } finally {
      await live.stop();
    }
    await new LiveWriter(db.store, 4).appendCount(5);
    // Other test files share the cluster: until their transactions in flight end, the five are not readable
    // yet (read-all.query.ts), and the lag, which counts what the projection could read, would be 0.
    await waitUntilSettled(db.pool);
  });
  afterAll(() => db.close());

  it('prints each version once, with its lag figures beside the columns of the table', async () => {
    const { code, out } = await cliOn(db, ['projections', 'status', '--json'], { readModels: READ_MODELS, reactors: REACTORS });
    expect(code).toBe(0);
    const lines = JSON.parse(out) as Array<Record<string, unknown>>;
    const orders = lines.find((line) => line.name === 'orders');
    expect(orders).toEqual({
      name: 'orders',
      kind: 'read model',
      version: 1,
      state: 'live',
      checkpoint: expect.stringMatching(/^\d+\/\d+$/),
      eventsProcessed: expect.any(Number),
      lagEvents: expect.any(Number),
      lagEventsAtLeast: false,
      lagSeconds: expect.any(Number),
    });
    // The orders events written after it stopped are pending.
    expect(orders!.lagEvents).toBeGreaterThan(0);
    // Projections this database never ran: what the table says of them, nothing more.
    const others = lines.filter((line) => line.name !== 'orders');
    expect(others.length).toBeGreaterThan(0);
    for (const line of others)
      expect(line).toEqual({ name: line.name, kind: expect.stringMatching(/^(read model|reactor)$/), state: 'not installed' });
  });
});

describe('idem projections status', () => {
  let db: ProjectionDatabase;
  beforeAll(async () => {
    db = await createProjectionDatabase('projections_status_held_back');
  });
  afterAll(() => db.close());

  it('says when a transaction in flight holds written events back from every projection', async () => {
    await whileTransactionHeldOpen(db.pool, async () => {
      await new LiveWriter(db.store, 2).appendCount(1);
      await waitUntilHeldBackFor(db.store, HELD_BACK_NOTICE_SECONDS * 1000);
      const { code, out } = await cliOn(db, ['projections', 'status'], { readModels: READ_MODELS, reactors: REACTORS });
      expect(code).toBe(0);
      expect(out).toMatch(/\nheld back: events written \d+\.\d s ago wait for a transaction still in flight/);
    });
    await waitUntilSettled(db.pool);
    const { out } = await cliOn(db, ['projections', 'status'], { readModels: READ_MODELS, reactors: REACTORS });
    expect(out).not.toContain('held back');
  });
});
