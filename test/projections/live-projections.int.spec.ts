import { readModelProjection } from '../../src/subscriptions/read-models/read-model.projection';
import { verifyReadModel } from '../../src/subscriptions/read-models/verify';
import { startProjections, type RunningProjections } from '../../src/subscriptions/start-projections';
import { createReadModelDataSource } from '../../src/database/data-source';
import { OrderQueries } from '../../projections/orders/orders.queries';
import { CHARGE_ORDER_TASK } from '../../modules/payments/charge-order/charge-order.payload';
import { READ_MODEL_ENTITIES, READ_MODELS, REACTORS } from '../harness/projection-catalogue';
import { LiveWriter } from './live-writer';
import { createProjectionDatabase, waitFor, waitUntilCaughtUp, type ProjectionDatabase } from './projection-harness';

describe('Live projections', () => {
  let db: ProjectionDatabase;
  let running: RunningProjections | undefined;
  const projections = [...READ_MODELS.map(readModelProjection), ...REACTORS];

  beforeAll(async () => {
    db = await createProjectionDatabase('live_projections');
  });
  afterAll(async () => {
    await running?.stop();
    await db.close();
  });

  it('folds history and live appends into every read model, and enqueues one charge job per requested order', async () => {
    const writer = new LiveWriter(db.store, 1);
    await writer.appendCount(1500);
    running = await startProjections({ store: db.store, pool: db.pool, readModels: READ_MODELS, reactors: REACTORS });
    const history = writer.appended;
    writer.start();
    // Live: the writer appends while the runners run, until it has added 300 events (counted, not timed).
    await waitFor('live appends', async () => writer.appended >= history + 300);
    await writer.stop();
    await waitUntilCaughtUp(db.store, db.pool, projections);

    for (const model of READ_MODELS) {
      const report = await verifyReadModel(db.store, db.pool, model);
      expect({ name: model.name, differences: report.differences.slice(0, 3) }).toEqual({ name: model.name, differences: [] });
      expect(report.rowsStored).toBeGreaterThan(0);
    }
    const { rows } = await db.pool.query(
      `SELECT (SELECT count(DISTINCT stream_name)::int FROM idem_events WHERE event_type = 'ChargeRequested') AS orders,
              (SELECT count(*)::int FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
                WHERE t.identifier = '${CHARGE_ORDER_TASK}') AS jobs`,
    );
    expect(rows[0].jobs).toBe(rows[0].orders);
  });

  it('answers GET /v1/orders/{orderId} from the orders view', async () => {
    const { rows } = await db.pool.query(`SELECT order_id FROM orders WHERE status = 'paid' LIMIT 1`);
    const dataSource = createReadModelDataSource({ url: db.url, entities: READ_MODEL_ENTITIES, poolSize: 2 });
    await dataSource.initialize();
    try {
      const order = await new OrderQueries(dataSource).findOrder(rows[0].order_id);
      expect(order).toMatchObject({
        orderId: rows[0].order_id,
        status: 'paid',
        currency: 'EUR',
        attempts: expect.any(Number),
        revision: expect.any(Number),
      });
      expect(typeof order!.amount).toBe('number');
      expect(order!.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await new OrderQueries(dataSource).findOrder('no-such-order')).toBeNull();
    } finally {
      await dataSource.destroy();
    }
  });
});
