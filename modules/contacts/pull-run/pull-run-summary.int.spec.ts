/**
 * A pull run's pages carry the run's totals (run-folds.ts: withTotals), as a file run's slices do, so a
 * process that never loaded a long pull run — the api answering GET /v1/sync/runs/{runId} after a
 * restart, `idem sync status` — reads at most SUMMARY_LOOKBACK events of it (loadRun from stateAtLastTotals) instead
 * of folding its whole stream, one event per record, and gets exactly the state that fold gives: stopped
 * mid-run, and completed.
 */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { freshProcess as freshProcessOn, listSource, wholeFold as wholeFoldOn } from '../../../test/harness/cold-run';
import { createTestDatabase } from '../../../test/harness/test-database';
import type { ImportRunState } from '../import-run.state';
import { toRunView } from '../import-run.view';
import type { ApiRunDrivers } from '../sync-runs/api-run-drivers';
import { SyncRunsController } from '../sync-runs/sync-runs.controller';
import { driveRun, loadRun } from './drive-run';
import { SUMMARY_LOOKBACK } from './run-folds';
import { startRun } from './start-run';

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };
const RECORDS = 2500;
const PAGE_SIZE = 100;

/** 2,500 records in pages of 100: a rejected one now and then among new contacts. */
const records = Array.from({ length: RECORDS }, (_, i) =>
  i % 97 === 5 ? { sourceId: '', fields: {} } : { sourceId: `sum-${i}`, version: 1, fields: { n: i } },
);
const source = listSource(records, PAGE_SIZE);

let pool: Pool;
let store: PostgresEventStore;
beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('pull_summary'), max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(() => pool.end());

const freshProcess = () => freshProcessOn(pool);
const wholeFold = (runId: string) => wholeFoldOn(pool, runId);

async function expectBoundedAndExact(runId: string): Promise<ImportRunState> {
  const folded = await wholeFold(runId);
  expect(folded.revision).toBeGreaterThan(SUMMARY_LOOKBACK);
  const summarizing = freshProcess();
  expect(await loadRun(summarizing.store, runId)).toEqual(folded);
  expect(summarizing.read()).toBeLessThanOrEqual(SUMMARY_LOOKBACK);
  // The api's GET in a process that never loaded the run.
  const api = freshProcess();
  const controller = new SyncRunsController(api.store, () => source, pool, undefined as unknown as ApiRunDrivers);
  expect(await controller.get(runId)).toEqual(toRunView(folded));
  expect(api.read()).toBeLessThanOrEqual(SUMMARY_LOOKBACK);
  return folded;
}

describe('a long pull run loaded by a process that never loaded it', () => {
  it('is read from its last page on, and is the fold of its whole stream, stopped mid-run and completed', async () => {
    const runId = await startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
    let pages = 0;
    const stopping = new AbortController();
    await driveRun(
      {
        store,
        sources: () => source,
        pageSize: PAGE_SIZE,
        metadata,
        signal: stopping.signal,
        onPage: () => {
          if (++pages === 22) stopping.abort();
        },
      },
      runId,
    );
    expect(await expectBoundedAndExact(runId)).toMatchObject({ status: 'running', processed: expect.any(Number) });

    const done = await driveRun({ store, sources: () => source, pageSize: PAGE_SIZE, metadata }, runId);
    expect(done).toMatchObject({ status: 'completed', processed: RECORDS });
    expect(done.counts.rejected).toBeGreaterThan(0);
    expect(await expectBoundedAndExact(runId)).toEqual(done);
  });
});
