/**
 * `idem projections status --json`, what scripts read: one object a projection version with the table's
 * columns and the lag's figures, each said once and the kind spelled as in the table.
 */
import { PassThrough } from 'node:stream';
import { ordersReadModel } from '../../../projections/orders/orders.projector';
import { READ_MODELS, REACTORS } from '../../../test/harness/projection-catalogue';
import { LiveWriter } from '../../../test/projections/live-writer';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from '../../../test/projections/projection-harness';
import { runCli } from '../../cli';
import { loadConfig } from '../../config/config';
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
  });
  afterAll(() => db.close());

  it('prints each version once, with its lag figures beside the columns of the table', async () => {
    const stdout = new PassThrough();
    const out: Buffer[] = [];
    stdout.on('data', (chunk: Buffer) => out.push(chunk));
    const code = await runCli(['projections', 'status', '--json'], {
      readModels: READ_MODELS,
      reactors: REACTORS,
      config: () => loadConfig({ DATABASE_URL: db.url }),
      runtime: async () => ({ pool: db.pool, store: db.store, databaseUrl: db.url }),
      stdout,
      stderr: new PassThrough(),
      exitCode: 0,
    });
    expect(code).toBe(0);
    const lines = JSON.parse(Buffer.concat(out).toString()) as Array<Record<string, unknown>>;
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
