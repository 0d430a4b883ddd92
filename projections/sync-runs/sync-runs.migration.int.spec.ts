/**
 * A database whose sync_runs version was made before runs showed their CRM (its table without
 * `source_identity`, the reader view over it). The contacts feature's migration, which every process
 * runs at start, gives the table the column and the view shows it: the live projector writes there
 * again, a run projected from then on shows its CRM, one projected before shows null and verify names
 * it, and `idem projections rebuild sync_runs` (rebuildReadModels) builds the next version with its CRM.
 */
import { contactsFeature, startRun } from '../../modules/contacts';
import { readModelProjection } from '../../src/subscriptions/read-models/read-model.projection';
import { rebuildReadModels } from '../../src/subscriptions/read-models/rebuild';
import { verifyReadModel } from '../../src/subscriptions/read-models/verify';
import { installReadModels } from '../../src/subscriptions/read-models/versions';
import { startProjections } from '../../src/subscriptions/start-projections';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from '../../test/projections/projection-harness';
import { syncRunsReadModel } from './sync-runs.projector';
import { listRuns } from './sync-runs.queries';

jest.setTimeout(120_000);

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };
const CRM = 'http://127.0.0.1:3100';
const MOVED = 'http://127.0.0.1:4100';

let db: ProjectionDatabase;
let before: string;

/** Runs the live sync_runs projector until it has read everything committed so far. */
async function project(): Promise<void> {
  const projections = await startProjections({ store: db.store, pool: db.pool, readModels: [syncRunsReadModel], reactors: [] });
  try {
    await waitUntilCaughtUp(db.store, db.pool, [readModelProjection(syncRunsReadModel)]);
  } finally {
    await projections.stop();
  }
}

const pullRun = (sourceIdentity: string) =>
  startRun(db.store, { source: 'crm', startedBy: 'test', kind: 'pull', sourceIdentity }, metadata);

const viewColumns = async () =>
  (
    await db.pool.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'sync_runs'`)
  ).rows.map((row) => row.column_name);

beforeAll(async () => {
  db = await createProjectionDatabase('sync_runs_upgrade');
  await installReadModels(db.pool, [syncRunsReadModel]);
  before = await pullRun(CRM);
  await project();
  // The version as code before this column made it: the table without it, the view expanded without it.
  await db.pool.query('DROP VIEW sync_runs');
  await db.pool.query('ALTER TABLE sync_runs_v1 DROP COLUMN source_identity');
  await db.pool.query('CREATE VIEW sync_runs AS SELECT * FROM sync_runs_v1');
});
afterAll(async () => {
  await db?.close();
});

describe('sync_runs made before runs showed their CRM', () => {
  it('gets the column from the migration of every starting process (two at once), and the view shows it', async () => {
    expect(await viewColumns()).not.toContain('source_identity');
    const migrate = contactsFeature().migrate!;

    await Promise.all([migrate(db.pool), migrate(db.pool)]);

    expect(await viewColumns()).toContain('source_identity');
    await migrate(db.pool); // and again at the next start: nothing left to do
  });

  it('shows the CRM of a run projected from then on, null for one projected before, and verify names the latter', async () => {
    const after = await pullRun(MOVED);
    await project();

    const runs = await listRuns(db.pool, { limit: 10 });
    expect(runs.map((run) => [run.runId, run.sourceIdentity])).toEqual([
      [after, MOVED],
      [before, null],
    ]);
    const report = await verifyReadModel(db.store, db.pool, syncRunsReadModel);
    expect(report).toMatchObject({ version: 1, rowsStored: 2 });
    expect(report.differences).toEqual([
      { key: expect.stringContaining(before), kind: 'different', columns: [{ column: 'source_identity', expected: CRM, actual: null }] },
    ]);
  });

  it('is whole again after a rebuild: the next version shows every run with its CRM', async () => {
    const [switched] = await rebuildReadModels({ store: db.store, pool: db.pool, models: [syncRunsReadModel] });

    expect(switched).toMatchObject({ from: 1, to: 2 });
    expect((await listRuns(db.pool, { limit: 10 })).find((run) => run.runId === before)).toMatchObject({ sourceIdentity: CRM });
    expect(await verifyReadModel(db.store, db.pool, syncRunsReadModel)).toMatchObject({ version: 2, differences: [] });
  });
});
