/**
 * `idem sync run` and `idem sync resume` on real PostgreSQL against the sandbox CRM: the progress bar
 * names what the command does (a resume's bar was the file import's, "import [...] 100% | 30/30
 * records"), and the closing line of a run that found nothing says so plainly.
 */
import { PassThrough } from 'node:stream';
import { Pool } from 'pg';
import { runCli } from '../../../src/cli';
import type { CliContext } from '../../../src/cli/cli-context';
import { loadConfig } from '../../../src/config/config';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { createSandbox, type Sandbox } from '../../sandbox';
import { startRun } from '../pull-run/start-run';

let pool: Pool;
let store: PostgresEventStore;
let databaseUrl: string;
let sandbox: Sandbox;

beforeAll(async () => {
  databaseUrl = await createTestDatabase('sync_cli');
  pool = new Pool({ connectionString: databaseUrl, max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  sandbox = await createSandbox({ crm: { seed: 5, size: 30 } });
});
afterAll(async () => {
  await sandbox.close();
  await pool.end();
});

async function idem(...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const config = loadConfig({ DATABASE_URL: databaseUrl, IDEM_CRM_URL: sandbox.url });
  const context: CliContext = {
    readModels: [],
    reactors: [],
    config: () => config,
    runtime: () => Promise.resolve({ pool, store, databaseUrl }),
    stdout,
    stderr,
    exitCode: 0,
  };
  const code = await runCli(args, context);
  const lines = err.split('\n').filter((line) => line.trim() !== '');
  return { code, view: JSON.parse(out.trim().split('\n').at(-1)!) as { runId: string; status: string }, lines };
}

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };

describe('idem sync run', () => {
  it('shows a bar named for the pull, and closes with the counts', async () => {
    const { code, view, lines } = await idem('sync', 'run', '--source', 'crm');
    expect(code).toBe(0);
    expect(lines.at(-2)).toBe(`pull ${view.runId} from crm | 1 page | 30 records: imported 30`);
    expect(lines.at(-1)).toBe(`${view.runId}: completed: 30 records (imported 30)`);
  });

  it('says plainly that a run which found nothing completed with 0 records', async () => {
    const { code, view, lines } = await idem('sync', 'run', '--source', 'crm', '--since', '2030-01-01T00:00:00Z');
    expect(code).toBe(0);
    expect(view.status).toBe('completed');
    expect(lines.at(-1)).toBe(`${view.runId}: completed: 0 records`);
  });
});

describe('idem sync resume', () => {
  it('shows a bar named for the resume of that run, not an import', async () => {
    // Started, and driven by no one: as by an api that died at once.
    const runId = await startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
    const { code, view, lines } = await idem('sync', 'resume', runId);
    expect(code).toBe(0);
    expect(view).toMatchObject({ runId, status: 'completed' });
    // The contacts are new, or unchanged when the run above imported them already.
    expect(lines.at(-2)).toMatch(new RegExp(`^resume of ${runId} \\(pull from crm\\) \\| 1 page \\| 30 records: (imported|unchanged) 30$`));
    expect(lines.at(-1)).toMatch(new RegExp(`^${runId}: completed: 30 records \\((imported|unchanged) 30\\)$`));
  });

  it('says that a completed run has nothing to resume', async () => {
    const { view: done } = await idem('sync', 'run', '--source', 'crm');
    const { code, view, lines } = await idem('sync', 'resume', done.runId);
    expect(code).toBe(0);
    expect(view).toEqual(done);
    expect(lines).toEqual([
      `${done.runId} was already completed: nothing to resume`,
      expect.stringMatching(/: completed: 30 records \((imported|unchanged) 30\)$/),
    ]);
  });
});
