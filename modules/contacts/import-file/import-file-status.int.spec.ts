/**
 * Where a file run's status comes from: GET /v1/sync/runs/{runId} and `idem sync status` answer
 * loadRun, a fold of the run's own stream (no read model, so no projection lag): an api process that
 * folded the run while the CLI was importing (and kept that fold, run-folds.ts) answers `completed`,
 * with the final counts, as soon as the CLI's import has returned — no projection runs in this test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { toRunView } from '../import-run.view';
import { loadRun } from '../pull-run/drive-run';
import { importFile } from './import-file';

const dir = mkdtempSync(join(tmpdir(), 'idem-file-status-'));
const metadata = { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } };
let pool: Pool;
beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('file_status'), max: 4 });
  await new PostgresEventStore(pool).migrate();
});
afterAll(async () => {
  await pool.end();
  rmSync(dir, { recursive: true, force: true });
});

describe('the status of a file run read by another process while it is imported', () => {
  it('is the fold of its stream: completed, with the final counts, once the import returns', async () => {
    const path = join(dir, 'contacts.ndjson');
    writeFileSync(path, Array.from({ length: 1200 }, (_, i) => JSON.stringify({ sourceId: `s${i}`, version: 1, fields: {} })).join('\n'));
    // Two processes: the CLI importing, the api answering GET (each its own store, so its own kept folds).
    const cli = new PostgresEventStore(pool);
    const api = new PostgresEventStore(pool);
    const seen: string[] = [];
    const imported = await importFile({
      store: cli,
      source: 'crm',
      path,
      metadata,
      sliceSize: 500,
      beforeRecordingSlice: async (run) => {
        seen.push((await loadRun(api, run.runId)).status);
      },
    });
    expect(seen).toEqual(['running', 'running', 'running']);
    const answered = await loadRun(api, imported.runId);
    expect(toRunView(answered)).toEqual(toRunView(imported));
    expect(answered).toMatchObject({ status: 'completed', processed: 1200, counts: { imported: 1200 } });
  });
});
