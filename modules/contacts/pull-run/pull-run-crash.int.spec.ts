/**
 * A pull run of 20,000 contacts whose driver process is SIGKILLed five times — at random moments and
 * right between a page's contact appends and the append of its outcomes and cursor — and then
 * resumed: exactly 20,000 contacts, none with a second revision, every record counted once as
 * `imported` (as an uninterrupted run counts them), and the run's counts equal the `import_events` rows
 * the projection folds from it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'pg';
import { importEventsReadModel } from '../../../projections/import-events/import-events.projector';
import { runReadModelMigrations } from '../../../src/database/data-source';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { readModelProjection } from '../../../src/subscriptions/read-models/read-model.projection';
import { startProjections } from '../../../src/subscriptions/start-projections';
import { createTestDatabase } from '../../../test/harness/test-database';
import { waitUntilCaughtUp } from '../../../test/projections/projection-harness';
import { createSandbox, seededRandom, type Sandbox } from '../../sandbox';
import { loadRun } from './drive-run';
import { startRun } from './start-run';

const ROOT = join(__dirname, '..', '..', '..');
const SIZE = 20_000;
/** Picks the kill points: IDEM_TEST_SEED=<n> replays a failed run's choices; without it a fresh seed, printed. */
const SEED = Number(process.env.IDEM_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));

let databaseUrl: string;
let pool: Pool;
let store: PostgresEventStore;
let sandbox: Sandbox;

beforeAll(async () => {
  databaseUrl = await createTestDatabase('contacts_pull_crash');
  pool = new Pool({ connectionString: databaseUrl, max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  await runReadModelMigrations(databaseUrl);
  sandbox = await createSandbox({ crm: { seed: 20, size: SIZE } });
});
afterAll(async () => {
  await sandbox.close();
  await pool.end();
});

/** Spawns a driver; resolves with its exit once `until` says so (then SIGKILLs it) or it exits. */
function driver(runId: string, env: Record<string, string>, until: (line: { event: string }) => boolean, killAfterMs?: number) {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'bench', 'lib', 'register.js'), join(__dirname, 'drive-run.process.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, CRM_URL: sandbox.url, RUN_ID: runId, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<{ event: string; [k: string]: unknown }> = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = JSON.parse(text);
    lines.push(line);
    if (until(line)) child.kill('SIGKILL');
    if (line.event === 'started' && killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  });
  return exited.then(() => lines);
}

it('ends with exactly 20,000 contacts, none revised twice, and run counts equal to the import_events rows', async () => {
  const runId = await startRun(
    store,
    { source: 'crm', startedBy: 'test', kind: 'pull' },
    { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } },
  );
  process.stderr.write(`pull-run-crash: kill points from IDEM_TEST_SEED=${SEED}\n`);
  const random = seededRandom(SEED);
  for (let kill = 0; kill < 5; kill++) {
    const lines =
      kill % 2 === 0
        ? await driver(runId, { PAUSE_AT_PAGE: String(1 + Math.floor(random() * 3)) }, (line) => line.event === 'paused')
        : await driver(runId, {}, () => false, 300 + Math.floor(random() * 1500));
    expect(lines.some((l) => l.event === 'done')).toBe(false);
    expect(lines.some((l) => l.event === 'error')).toBe(false);
  }
  const stoppedAt = await loadRun(store, runId);
  expect(stoppedAt.status).toBe('running');
  expect(stoppedAt.pages).toBeLessThan(SIZE / 500);

  const last = await driver(runId, {}, () => false);
  expect(last.at(-1)).toMatchObject({ event: 'done', status: 'completed', processed: SIZE });

  const { rows } = await pool.query(
    `SELECT count(DISTINCT stream_name)::int AS contacts, count(*)::int AS events FROM idem_events WHERE stream_name LIKE 'contact-crm.%'`,
  );
  expect(rows[0]).toEqual({ contacts: SIZE, events: SIZE });

  const run = await loadRun(store, runId);
  expect(run).toMatchObject({ status: 'completed', processed: SIZE, pages: SIZE / 500 });
  // As an uninterrupted run over a fresh store: a record met again after a kill answers what its own
  // append was (imported), not unchanged or duplicate — no record is processed twice.
  expect(run.counts).toEqual({ imported: SIZE });
  const running = await startProjections({ store, pool, readModels: [importEventsReadModel], reactors: [] });
  try {
    await waitUntilCaughtUp(store, pool, [readModelProjection(importEventsReadModel)], 120_000);
  } finally {
    await running.stop();
  }
  const audit = await pool.query(`SELECT outcome, count(*)::int AS n FROM import_events WHERE run_id = $1 GROUP BY outcome`, [runId]);
  expect(Object.fromEntries(audit.rows.map((r) => [r.outcome, r.n]))).toEqual(run.counts);
}, 300_000);
