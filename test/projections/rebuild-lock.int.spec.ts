/**
 * Only one process rebuilds a read model at a time, and the one refused leaves the running rebuild
 * alone. A rebuild whose first batch wrote no row has an empty building table behind a checkpoint,
 * which is also what crash recovery leaves behind (and starts over); a second `rebuild` used to take
 * it for that and reset the checkpoint before finding the rebuild lock held, so the running rebuild
 * failed its next compare-and-set.
 */
import { randomUUID } from 'node:crypto';
import { contactsReadModel } from '../../projections/contacts/contacts.projector';
import { readVersions } from '../../src/subscriptions/checkpoint-store';
import { readModelProjection } from '../../src/subscriptions/read-models/read-model.projection';
import { RebuildAlreadyRunning, rebuildReadModels } from '../../src/subscriptions/read-models/rebuild';
import { startProjections } from '../../src/subscriptions/start-projections';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from './projection-harness';

const metadata = {
  correlationId: randomUUID(),
  causationId: randomUUID(),
  actor: { role: 'sync', tokenId: 'test' },
  recordedAt: '2026-01-02T00:00:00.000Z',
};
const freshness = (version: number) => ({ sourceVersion: version, sourceUpdatedAt: '2026-01-02T00:00:00.000Z', checksum: `c${version}` });

describe('A second rebuild of a read model being rebuilt', () => {
  let db: ProjectionDatabase;

  beforeAll(async () => {
    db = await createProjectionDatabase('rebuild_lock');
  });
  afterAll(async () => {
    await db.close();
  });

  it('is refused without touching the running one, which then finishes and switches', async () => {
    // First in history: a delete of a contact never imported, which writes no row.
    await db.store.append(
      'contact-crm.gone',
      [{ id: randomUUID(), type: 'ContactDeleted', data: { source: 'crm', sourceId: 'gone', ...freshness(1) }, metadata }],
      'no_stream',
    );
    for (const sourceId of ['a', 'b']) {
      await db.store.append(
        `contact-crm.${sourceId}`,
        [{ id: randomUUID(), type: 'ContactImported', data: { source: 'crm', sourceId, ...freshness(1), fields: {} }, metadata }],
        'no_stream',
      );
    }
    const live = await startProjections({ store: db.store, pool: db.pool, readModels: [contactsReadModel], reactors: [] });
    await waitUntilCaughtUp(db.store, db.pool, [readModelProjection(contactsReadModel)]);
    await live.stop();

    // The running rebuild stops before committing its first batch that writes rows.
    let reachedRows!: () => void;
    const atRows = new Promise<void>((resolve) => (reachedRows = resolve));
    let letGo!: () => void;
    const released = new Promise<void>((resolve) => (letGo = resolve));
    const running = rebuildReadModels({
      store: db.store,
      pool: db.pool,
      models: [contactsReadModel],
      maxBatchSize: 1,
      observer: {
        beforeCommit: async (_member, events) => {
          if (!events.some((event) => event.type === 'ContactImported')) return;
          reachedRows();
          await released;
        },
      },
    });
    await atRows;
    const building = async () => (await readVersions(db.pool, 'contacts')).find((v) => v.state === 'building');
    const before = await building();
    // The case in point: a checkpoint, and no row in the building table.
    expect(before).toMatchObject({ version: 2 });
    expect(before!.checkpoint).toBeDefined();
    expect((await db.pool.query('SELECT count(*)::int AS n FROM contacts_v2')).rows[0].n).toBe(0);

    await expect(rebuildReadModels({ store: db.store, pool: db.pool, models: [contactsReadModel] })).rejects.toBeInstanceOf(
      RebuildAlreadyRunning,
    );
    expect((await building())?.checkpoint).toBe(before!.checkpoint);

    letGo();
    const [switched] = await running;
    expect(switched).toMatchObject({ from: 1, to: 2 });
    const { rows } = await db.pool.query('SELECT source_id FROM contacts ORDER BY source_id');
    expect(rows.map((row) => row.source_id)).toEqual(['a', 'b']);
  });
});
