/**
 * sync_runs on a real database, kept incrementally while runs go on (a completed pull run, one a stop
 * rule stopped, a file run still open, a push batch): it lists each run as GET shows it, `idem sync
 * list` prints the same, and a rebuild from the whole history (what `idem projections rebuild
 * sync_runs` runs) gives exactly the rows the live runner kept.
 */
import { contactSourcesAt, driveRun, loadRun, startRun, toRunView, unfinishedRuns, type RunDriverDeps } from '../../modules/contacts';
import { createSandbox, type Sandbox } from '../../modules/sandbox';
import { readModelProjection } from '../../src/subscriptions/read-models/read-model.projection';
import { rebuildReadModels } from '../../src/subscriptions/read-models/rebuild';
import { verifyReadModel } from '../../src/subscriptions/read-models/verify';
import { startProjections, type RunningProjections } from '../../src/subscriptions/start-projections';
import { cliOn } from '../../test/harness/cli-on-database';
import { READ_MODELS, REACTORS } from '../../test/harness/projection-catalogue';
import { createProjectionDatabase, waitFor, waitUntilCaughtUp, type ProjectionDatabase } from '../../test/projections/projection-harness';
import { syncRunsReadModel } from './sync-runs.projector';
import { listRuns, runningPullRunsAt } from './sync-runs.queries';
import { readVersions } from '../../src/subscriptions/checkpoint-store';

jest.setTimeout(120_000);

const metadata: RunDriverDeps['metadata'] = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };

let sandbox: Sandbox;
let db: ProjectionDatabase;
let projections: RunningProjections;
const runs: Record<'completed' | 'stopped' | 'file' | 'push', string> = { completed: '', stopped: '', file: '', push: '' };

beforeAll(async () => {
  sandbox = await createSandbox({ crm: { seed: 5, size: 150 } });
  db = await createProjectionDatabase('sync_runs');
  projections = await startProjections({ store: db.store, pool: db.pool, readModels: [syncRunsReadModel], reactors: [] });

  const start = (kind: 'pull' | 'file' | 'push') => startRun(db.store, { source: 'crm', startedBy: 'test', kind }, metadata);
  const deps: RunDriverDeps = { store: db.store, sources: contactSourcesAt(sandbox.url), pageSize: 50, backoffMs: 5, metadata };
  runs.completed = (await driveRun(deps, await start('pull'))).runId;
  await control('POST', '/crm/_control/faults', { page: 2, kind: 'error_500' });
  try {
    runs.stopped = (await driveRun(deps, await start('pull'))).runId;
  } finally {
    await control('DELETE', '/crm/_control/faults');
  }
  runs.push = await start('push');
  runs.file = await start('file');
  await waitUntilCaughtUp(db.store, db.pool, [readModelProjection(syncRunsReadModel)]);
});
afterAll(async () => {
  await projections?.stop();
  await db?.close();
  await sandbox?.close();
});

async function control(method: string, path: string, body?: unknown): Promise<void> {
  const init = body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  expect((await fetch(`${sandbox.url}${path}`, { method, ...init })).ok).toBe(true);
}

const tableRows = async (version: number) => (await db.pool.query(`SELECT * FROM sync_runs_v${version} ORDER BY run_id`)).rows;

describe('sync_runs', () => {
  it('lists pull and file runs newest first, each as GET /v1/sync/runs/{runId} shows it, and no push batch', async () => {
    const listed = await listRuns(db.pool, { limit: 100 });

    expect(listed.map((run) => run.runId)).toEqual([runs.file, runs.stopped, runs.completed]);
    expect(listed).toEqual(await Promise.all(listed.map(async (run) => toRunView(await loadRun(db.store, run.runId)))));
    expect(listed.map((run) => [run.status, run.processed])).toEqual([
      ['running', 0],
      ['needs_review', 50],
      ['completed', 150],
    ]);
    expect(await listRuns(db.pool, { status: 'needs_review', limit: 100 })).toEqual([listed[1]]);
    expect(await listRuns(db.pool, { limit: 2 })).toEqual(listed.slice(0, 2));
    expect((await tableRows(1)).map((row) => row.run_id)).toContain(runs.push);
  });

  it('prints the same runs with `idem sync list`', async () => {
    const { code, out } = await cliOn(db, ['sync', 'list', '--status', 'needs_review'], { readModels: READ_MODELS, reactors: REACTORS });

    expect(code).toBe(0);
    expect(out.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${runs.stopped}  pull  needs_review  50 records  .*5 times`)),
    ]);
  });

  it('rebuilds from the whole history to the rows it kept incrementally, and verify finds no difference in either', async () => {
    await projections.stop();
    expect(await verifyReadModel(db.store, db.pool, syncRunsReadModel)).toMatchObject({ version: 1, rowsStored: 4, differences: [] });

    const [switched] = await rebuildReadModels({ store: db.store, pool: db.pool, models: [syncRunsReadModel] });

    expect(switched).toMatchObject({ from: 1, to: 2 });
    expect(await tableRows(2)).toEqual(await tableRows(1));
    expect(await verifyReadModel(db.store, db.pool, syncRunsReadModel)).toMatchObject({ version: 2, rowsStored: 4, differences: [] });
  });

  it('tells a starting worker the pull runs it shows running and the checkpoint to read the rest of the log from', async () => {
    projections = await startProjections({ store: db.store, pool: db.pool, readModels: [syncRunsReadModel], reactors: [] });
    const open = await startRun(db.store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
    await waitUntilCaughtUp(db.store, db.pool, [readModelProjection(syncRunsReadModel)]);
    await projections.stop();
    // Started while the read model is stopped: in the log only, after its checkpoint.
    const late = await startRun(db.store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);

    const known = await runningPullRunsAt(db.pool);
    const [live] = (await readVersions(db.pool, syncRunsReadModel.name)).filter((version) => version.state === 'live');
    // Not the completed or stopped pull runs, the open file run or the push batch.
    expect(known).toEqual({ checkpoint: live.checkpoint, runningPullRuns: [open] });
    await waitFor('the late run to be readable in order', async () => (await unfinishedRuns(db.store)).includes(late));
    expect((await unfinishedRuns(db.store, 'pull', known)).sort()).toEqual([open, late].sort());
  });
});
