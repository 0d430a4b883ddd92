/**
 * A file run loaded by a process that never loaded it (a resumed import, `idem sync status`) comes from
 * its last slice's totals and the events after them (loadRun from stateAtLastTotals: reads of at most
 * SUMMARY_LOOKBACK events in all), and is exactly the state a fold of its whole stream gives: killed between
 * slices, killed inside the append that completes it, completed, and resumed to its end. A run whose
 * pages carry no totals (recorded before) is left to the whole fold.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { killedBeforeCompletion } from '../../../test/harness/killed-before-completion';
import { freshProcess as freshProcessOn, wholeFold as wholeFoldOn } from '../../../test/harness/cold-run';
import { createTestDatabase } from '../../../test/harness/test-database';
import { importStream } from '../contact.events';
import { loadRun, RUN_READ_PAGE } from '../pull-run/drive-run';
import { SUMMARY_LOOKBACK, stateAtLastTotals } from '../pull-run/run-folds';
import { importFile } from './import-file';

const dir = mkdtempSync(join(tmpdir(), 'idem-file-summary-'));
const metadata = { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } };
let pool: Pool;
let store: PostgresEventStore;
beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('file_summary'), max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(async () => {
  await pool.end();
  rmSync(dir, { recursive: true, force: true });
});

/** 2,450 lines: re-sent records, five contradicting what was imported, broken lines; slices of 100. */
function file(tag: string): string {
  const path = join(dir, `${tag}.ndjson`);
  const lines = Array.from({ length: 2450 }, (_, i) => {
    if (i % 89 === 0) return '{"broken';
    const contact = i % 700;
    return JSON.stringify({
      sourceId: `${tag}${contact}`,
      version: 1,
      eventId: `${tag}${contact}-1`,
      fields: { n: i >= 1000 && i < 1005 ? 'b' : 'a' },
    });
  });
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}
const options = (path: string) => ({ store, source: 'crm', path, metadata, sliceSize: 100 });

const freshProcess = () => freshProcessOn(pool);
const wholeFold = (runId: string) => wholeFoldOn(pool, runId);

async function expectSummaryIsTheFold(runId: string) {
  const summarizing = freshProcess();
  const summarized = await loadRun(summarizing.store, runId);
  const folded = await wholeFold(runId);
  expect(folded.revision).toBeGreaterThan(SUMMARY_LOOKBACK);
  expect(summarized).toEqual(folded);
  expect(summarizing.read()).toBeLessThanOrEqual(SUMMARY_LOOKBACK);
  return folded;
}

describe('a file run loaded by a process that never loaded it', () => {
  it('is the fold of the whole stream when the import was killed between slices, and after it completes', async () => {
    const path = file('k');
    let slices = 0;
    const killed = importFile({
      ...options(path),
      beforeRecordingSlice: async () => {
        if (++slices === 23) throw new Error('killed');
      },
    });
    await expect(killed).rejects.toThrow('killed');
    const [{ stream_name }] = (await pool.query(`SELECT DISTINCT stream_name FROM idem_events WHERE stream_name LIKE 'import-file.%'`))
      .rows;
    const runId = (stream_name as string).slice('import-'.length);
    expect(await expectSummaryIsTheFold(runId)).toMatchObject({ status: 'running', processed: 2200 });

    const done = await importFile(options(path));
    expect(done).toMatchObject({ status: 'completed', processed: 2450 });
    expect(await expectSummaryIsTheFold(runId)).toEqual(done);
    expect(done.counts.conflict).toBeGreaterThan(0);
  });

  it('is the fold of the whole stream when the import was killed inside the append that completes it', async () => {
    const path = file('c');
    await expect(importFile({ ...options(path), store: killedBeforeCompletion(store) })).rejects.toThrow('killed');
    const run = await loadRun(new PostgresEventStore(pool), (await importFile({ ...options(path), store: freshProcess().store })).runId);
    expect(run.status).toBe('completed');
    expect(await expectSummaryIsTheFold(run.runId)).toEqual(run);
  });

  it('leaves a run whose pages carry no totals to the whole fold', async () => {
    const run = await importFile(options(file('o')));
    await pool.query(`UPDATE idem_events SET data = (data::jsonb - 'run')::json WHERE stream_name = $1`, [importStream(run.runId)]);
    expect(await stateAtLastTotals(freshProcess().store, run.runId, RUN_READ_PAGE)).toBeUndefined();
    expect(await loadRun(freshProcess().store, run.runId)).toEqual(await wholeFold(run.runId));
  });
});
