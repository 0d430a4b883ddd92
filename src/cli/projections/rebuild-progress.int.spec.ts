/**
 * `idem projections rebuild` run again after an interruption resumes the version it was building; its
 * progress bar must count what that version already applied, so it ends full like an uninterrupted
 * rebuild's. It used to count only this run's events against the live version's total and stopped at
 * the share left over (a rebuild interrupted at 30 % ended its resumed run at 70 %).
 */
import { ordersReadModel } from '../../../projections/orders/orders.projector';
import { cliOn } from '../../../test/harness/cli-on-database';
import { READ_MODELS, REACTORS } from '../../../test/harness/projection-catalogue';
import { LiveWriter } from '../../../test/projections/live-writer';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from '../../../test/projections/projection-harness';
import { readVersions } from '../../subscriptions/checkpoint-store';
import { readModelProjection } from '../../subscriptions/read-models/read-model.projection';
import { rebuildReadModels } from '../../subscriptions/read-models/rebuild';
import { startProjections } from '../../subscriptions/start-projections';

describe('idem projections rebuild, run again after an interruption', () => {
  let db: ProjectionDatabase;
  beforeAll(async () => {
    db = await createProjectionDatabase('rebuild_resume_progress');
    await new LiveWriter(db.store, 7).appendCount(600);
    const live = await startProjections({ store: db.store, pool: db.pool, readModels: [ordersReadModel], reactors: [] });
    try {
      await waitUntilCaughtUp(db.store, db.pool, [readModelProjection(ordersReadModel)]);
    } finally {
      await live.stop();
    }
  });
  afterAll(() => db.close());

  it('resumes the version it was building and ends its progress bar at every event applied, of as many', async () => {
    const liveEvents = (await readVersions(db.pool, 'orders')).find((v) => v.state === 'live')!.eventsProcessed;
    const interrupt = new AbortController();
    let appliedBefore = 0;
    // The first run stops after its first batch, as Ctrl+C does between batches.
    await expect(
      rebuildReadModels({
        store: db.store,
        pool: db.pool,
        models: [ordersReadModel],
        maxBatchSize: 50,
        signal: interrupt.signal,
        onProgress: (progress) => {
          appliedBefore = progress.applied.orders;
          interrupt.abort(new Error('interrupted'));
        },
      }),
    ).rejects.toThrow('interrupted');
    expect(appliedBefore).toBeGreaterThan(0);
    expect(appliedBefore).toBeLessThan(liveEvents);

    const { code, err: output } = await cliOn(db, ['projections', 'rebuild', 'orders', '--batch-size', '50'], {
      readModels: READ_MODELS,
      reactors: REACTORS,
    });

    expect(code).toBe(0);
    expect(output).toContain('orders: resuming version 2 beside the live one');
    const [, applied, total] = [...output.matchAll(/(\d+)\/(\d+) events applied/g)].at(-1)!;
    expect({ applied: Number(applied), total: Number(total) }).toEqual({ applied: liveEvents, total: liveEvents });
  });
});
