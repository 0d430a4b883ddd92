/**
 * The reason rebuilds exist: version 1 of `orders` was built by a projector with a bug. Verify (with
 * the fixed projector) reports the drift; a rebuild produces version 2 with the corrected rows while
 * version 1 keeps serving; verify then passes.
 */
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import type { ReadModel } from '../../src/subscriptions/read-models/read-model';
import { rebuildReadModels } from '../../src/subscriptions/read-models/rebuild';
import { readModelProjection } from '../../src/subscriptions/read-models/read-model.projection';
import { verifyReadModel } from '../../src/subscriptions/read-models/verify';
import { startProjections } from '../../src/subscriptions/start-projections';
import type { OrderRow } from '../../projections/orders/orders.entity';
import { ordersReadModel } from '../../projections/orders/orders.projector';
import { LiveWriter } from './live-writer';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from './projection-harness';

/** The bug: charge attempts were never counted. */
const buggyOrders: ReadModel<OrderRow> = {
  ...ordersReadModel,
  evolve: (row: OrderRow | undefined, event: RecordedEvent) => {
    const next = ordersReadModel.evolve(row, event);
    return next && row && event.type === 'ChargeAttemptStarted' && next !== row ? { ...next, attempts: row.attempts } : next;
  },
};

describe('A projector bug fixed in version 2', () => {
  let db: ProjectionDatabase;

  beforeAll(async () => {
    db = await createProjectionDatabase('projector_bug');
  });
  afterAll(async () => {
    await db.close();
  });

  it('is reported by verify, and the rebuild serves corrected rows that verify clean', async () => {
    await new LiveWriter(db.store, 3).appendCount(1200);
    const running = await startProjections({ store: db.store, pool: db.pool, readModels: [buggyOrders], reactors: [] });
    await waitUntilCaughtUp(db.store, db.pool, [readModelProjection(buggyOrders)]);
    await running.stop();

    const before = await verifyReadModel(db.store, db.pool, ordersReadModel);
    expect(before.version).toBe(1);
    expect(before.differences.length).toBeGreaterThan(0);
    expect(
      before.differences.every((d) => d.kind === 'different' && d.columns!.every((c) => c.column === 'attempts' && c.actual === '0')),
    ).toBe(true);

    const [switched] = await rebuildReadModels({ store: db.store, pool: db.pool, models: [ordersReadModel] });
    expect(switched).toMatchObject({ from: 1, to: 2 });

    const after = await verifyReadModel(db.store, db.pool, ordersReadModel);
    expect({ version: after.version, differences: after.differences }).toEqual({ version: 2, differences: [] });
    expect(after.rowsStored).toBe(before.rowsStored);
    // The buggy version is kept (for comparison or roll-back) until drop-old.
    expect((await verifyReadModel(db.store, db.pool, ordersReadModel, 1)).differences).toHaveLength(before.differences.length);
  });
});
