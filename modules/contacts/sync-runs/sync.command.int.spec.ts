/**
 * `idem sync run` and `idem sync resume` on real PostgreSQL against the sandbox CRM: the progress bar
 * names what the command does (a resume's bar was the file import's, "import [...] 100% | 30/30
 * records"), a resume refuses a run started against another CRM than its own, leaves a run another
 * live process drives to it (saying by whom and since when, exit code 75), and the closing line of a run that found nothing says so plainly. `idem sync list` pages
 * through every run the read model holds (it used to stop at the newest 100) and says how many it showed.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { Pool } from 'pg';
import { runCli } from '../../../src/cli';
import { EXIT_CHECK_FAILED, EXIT_ERROR, type CliContext } from '../../../src/cli/cli-context';
import { loadConfig } from '../../../src/config/config';
import { runReadModelMigrations } from '../../../src/database/data-source';
import type { EventStore, EventToAppend, ExpectedRevision } from '../../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { readModelProjection } from '../../../src/subscriptions/read-models/read-model.projection';
import { startProjections } from '../../../src/subscriptions/start-projections';
import { createTestDatabase } from '../../../test/harness/test-database';
import { waitFor, waitUntilCaughtUp } from '../../../test/projections/projection-harness';
import { syncRunsReadModel } from '../../../projections/sync-runs/sync-runs.projector';
import { createSandbox, type Sandbox } from '../../sandbox';
import { importStream } from '../contact.events';
import { appendRunEvents, loadRun } from '../pull-run/drive-run';
import { runLocksOn } from '../pull-run/run-lock';
import { startRun } from '../pull-run/start-run';
import { EXIT_DRIVEN_ELSEWHERE } from './sync.actions';

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

const cli = (...args: string[]) => cliOn(pool, ...args);

/** The CLI reading the database through `database` (a test may act between its queries), pulling from `crmUrl`. */
async function cliOn(database: Pool, ...args: string[]) {
  return cliWith(database, sandbox.url, ...args);
}

async function cliWith(database: Pool, crmUrl: string, ...args: string[]) {
  return cliThrough(store, database, crmUrl, ...args);
}

async function cliThrough(eventStore: EventStore, database: Pool, crmUrl: string, ...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const config = loadConfig({ DATABASE_URL: databaseUrl, IDEM_CRM_URL: crmUrl });
  const context: CliContext = {
    readModels: [],
    reactors: [],
    config: () => config,
    runtime: () => Promise.resolve({ pool: database, store: eventStore, databaseUrl }),
    stdout,
    stderr,
    exitCode: 0,
  };
  const code = await runCli(args, context);
  const nonEmpty = (text: string) => text.split('\n').filter((line) => line.trim() !== '');
  return { code, out: nonEmpty(out), lines: nonEmpty(err) };
}

async function idem(...args: string[]) {
  const { code, out, lines } = await cli(...args);
  return { code, view: JSON.parse(out.at(-1)!) as { runId: string; status: string }, lines };
}

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };

/** The store, each append going through `before` first (which may act meanwhile, or fail the append). */
function appendingThrough(before: (events: EventToAppend[]) => Promise<void>): EventStore {
  return new Proxy(store, {
    get(target, property) {
      if (property !== 'append') {
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (stream: string, events: EventToAppend[], expected: ExpectedRevision) => {
        await before(events);
        return target.append(stream, events, expected);
      };
    },
  });
}

describe('idem sync run', () => {
  it('shows a bar named for the pull, and closes with the counts', async () => {
    const { code, view, lines } = await idem('sync', 'run', '--source', 'crm');
    expect(code).toBe(0);
    // Without a terminal, a line per update drawn: the last one once (the bar's stop repeated it).
    expect(lines).toEqual([
      `started ${view.runId}`,
      `pull ${view.runId} from crm | 1 page | 30 records: imported 30`,
      `${view.runId}: completed: 30 records (imported 30)`,
    ]);
  });

  it("holds the new run's lock before the run exists, so a worker's sweep at its start cannot take it", async () => {
    // A rival (a worker's sweep) tries the lock at the moment the run's ImportRunStarted is appended.
    const rivals: Array<'took it' | 'found it held'> = [];
    const watched = appendingThrough(async (events) => {
      if (events[0]?.type === 'ImportRunStarted') {
        const rival = await runLocksOn(pool).take((events[0].data as { runId: string }).runId);
        rivals.push(rival ? 'took it' : 'found it held');
        await rival?.release();
      }
    });
    const { code, out } = await cliThrough(watched, pool, sandbox.url, 'sync', 'run', '--source', 'crm');
    expect(code).toBe(0);
    expect(rivals).toEqual(['found it held']);
    expect(JSON.parse(out.at(-1)!)).toMatchObject({ status: 'completed' });
  });

  it('says plainly that a run which found nothing completed with 0 records', async () => {
    const { code, view, lines } = await idem('sync', 'run', '--source', 'crm', '--since', '2030-01-01T00:00:00Z');
    expect(code).toBe(0);
    expect(view.status).toBe('completed');
    expect(lines.at(-1)).toBe(`${view.runId}: completed: 0 records`);
  });
});

describe('idem sync run when the store fails for a moment (PostgreSQL restarting, a dropped connection)', () => {
  it('drives the run again after a backoff, from its last recorded page, saying so, and completes with exit code 0', async () => {
    // The first page's record fails as the pg client fails a query whose connection the server dropped.
    let failures = 0;
    const flaky = appendingThrough((events) =>
      events[0]?.type === 'ImportRecordProcessed' && failures++ === 0
        ? Promise.reject(new Error('Connection terminated unexpectedly'))
        : Promise.resolve(),
    );
    const { code, out, lines } = await cliThrough(flaky, pool, sandbox.url, 'sync', 'run', '--source', 'crm');

    // It exited 2 here ("idem: Connection terminated unexpectedly"), the run left running.
    expect({ code, lines }).toMatchObject({ code: 0 });
    const view = JSON.parse(out.at(-1)!) as { runId: string };
    expect(lines).toContain(
      `${view.runId} stopped on an error; driving it again in 500 ms (Ctrl+C leaves it running for a worker): Connection terminated unexpectedly`,
    );
    expect(view).toMatchObject({ status: 'completed', processed: 30 });
    expect(await loadRun(store, view.runId)).toMatchObject({ status: 'completed', processed: 30, pages: 1 });
  });
});

describe('idem sync run when its lock session ends under it (PostgreSQL ended the session, or restarted)', () => {
  it('takes the run again and drives it to its end, saying so, instead of ending with the run left running', async () => {
    // The command holds the new run's lock before it starts the run: its session is ended right then.
    const lockSession = `${hostname().slice(0, 32)} pid ${process.pid}`;
    const sessionsOf = async (name: string) =>
      Number(
        (
          await pool.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`, [
            name,
          ])
        ).rows[0].n,
      );
    const ended = appendingThrough(async (events) => {
      if (events[0]?.type !== 'ImportRunStarted') return;
      await pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [lockSession]);
      await waitFor('the lock session to be gone', async () => (await sessionsOf(lockSession)) === 0);
    });
    const { code, out, lines } = await cliThrough(ended, pool, sandbox.url, 'sync', 'run', '--source', 'crm');

    // It ended here with exit code 1 and the run left running, no record pulled ("running: no records yet").
    expect({ code, lines }).toMatchObject({ code: 0 });
    const view = JSON.parse(out.at(-1)!) as { runId: string };
    expect(lines).toContain(
      `${view.runId} stopped: this command no longer holds the run (its lock session ended); driving it again in 500 ms (Ctrl+C leaves it running for a worker)`,
    );
    expect(view).toMatchObject({ status: 'completed', processed: 30 });
  });
});

describe('idem sync run against a CRM answering a next cursor no run can record', () => {
  let crm: Server;
  let crmUrl: string;
  beforeAll(async () => {
    // One page of two contacts, whose next cursor holds a NUL: no PostgreSQL text or document holds it.
    crm = createServer((_, response) => {
      const contacts = ['nul.1', 'nul.2'].map((id) => ({ sourceId: id, version: 1, fields: { name: id } }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ contacts, nextCursor: 'page\u00002' }));
    });
    await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
    crmUrl = `http://127.0.0.1:${(crm.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => crm.close(resolve)));

  it('stops the run as needs_review naming the cursor, exits 1 with that reason, and records nothing of the page', async () => {
    const { code, out, lines } = await cliWith(pool, crmUrl, 'sync', 'run', '--source', 'crm');

    const view = JSON.parse(out.at(-1)!) as { runId: string; status: string; reason: string; processed: number; pages: number };
    expect(code).toBe(EXIT_CHECK_FAILED);
    expect(view).toMatchObject({ status: 'needs_review', processed: 0, pages: 0 });
    expect(view.reason).toContain('"page\\u00002"');
    expect(view.reason).toContain('U+0000 (NUL)');
    expect(lines.at(-1)).toBe(`${view.runId}: needs_review: 0 records — ${view.reason}`);
    const events = await store.readStream(importStream(view.runId));
    expect(events.map((e) => e.type)).toEqual(['ImportRunStarted', 'ImportRunNeedsReview']);
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM idem_events WHERE stream_name LIKE 'contact-crm.nul.%'`);
    expect(rows[0].n).toBe(0);
  });
});

describe('idem sync import', () => {
  it('shows its bar without a terminal once per update, the last line once, then the status line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sync-import-'));
    try {
      const file = join(dir, 'few.ndjson');
      writeFileSync(file, ['a', 'b', 'c'].map((id) => JSON.stringify({ sourceId: `imp-${id}`, fields: {} })).join('\n'));
      const { code, out, lines } = await cli('sync', 'import', file, '--source', 'crm');
      const view = JSON.parse(out.at(-1)!) as { runId: string };
      expect(code).toBe(0);
      expect(lines).toEqual([
        `import ${file} [${'='.repeat(40)}] 100% | ${statSync(file).size}/${statSync(file).size} bytes | 3 records: imported 3`,
        `${view.runId}: completed: 3 records (imported 3)`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** `idem sync import` of a file holding `text`, in a directory of its own. */
  async function importText(name: string, text: string) {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sync-import-'));
    try {
      const file = join(dir, name);
      writeFileSync(file, text);
      const { code, out, lines } = await cli('sync', 'import', file, '--source', 'crm');
      return { code, view: JSON.parse(out.at(-1)!) as { runId: string }, lines };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('stops a file none of whose records can be read (CSV named .ndjson) as needs_review, naming the first rejection, exit code 1', async () => {
    const { code, view, lines } = await importText('export.ndjson', 'sourceId,version,name\nu1,1,Ann\nu2,1,Bob\n');
    expect(code).toBe(EXIT_CHECK_FAILED);
    expect(view).toMatchObject({ status: 'needs_review', processed: 3, counts: { rejected: 3, imported: 0 } });
    expect(lines.at(-1)).toBe(
      `${view.runId}: needs_review: 3 records (rejected 3) — nothing could be read: all 3 of its records were rejected (the first, record 1: line 1 is not valid JSON); is the file in the format its name says (.csv for CSV, any other name for NDJSON), with the header and delimiter expected? Fix it and import it again`,
    );
  });

  it('completes a file with some rejected records among good ones, counting them, exit code 0', async () => {
    const text = ['not json', '{"sourceId": ""}', JSON.stringify({ sourceId: 'part-1', fields: {} })].join('\n');
    const { code, view } = await importText('partly.ndjson', text);
    expect(code).toBe(0);
    expect(view).toMatchObject({ status: 'completed', processed: 3, counts: { rejected: 2, imported: 1 } });
  });

  it('names a file that does not exist in one line, exit code 2, and starts no run', async () => {
    const missing = join(tmpdir(), 'idem-sync-import-nonexistent', 'contacts.ndjson');
    const runsBefore = await pool.query(`SELECT count(*)::int AS n FROM idem_events WHERE stream_name LIKE 'import-file.%'`);
    const { code, out, lines } = await cli('sync', 'import', missing, '--source', 'crm');
    expect(code).toBe(EXIT_ERROR);
    expect(out).toEqual([]);
    expect(lines.at(-1)).toBe(`idem: cannot read ${missing}: no such file`);
    const runsAfter = await pool.query(`SELECT count(*)::int AS n FROM idem_events WHERE stream_name LIKE 'import-file.%'`);
    expect(runsAfter.rows[0].n).toBe(runsBefore.rows[0].n);
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

  it('leaves a run another live process drives to it: says by whom and since when, exit 75, nothing written or driven', async () => {
    const runId = await startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
    // Another process's driver holds the run (its lock session is this process's, named like any driver's).
    const driver = await runLocksOn(pool).take(runId);
    try {
      const holder = await runLocksOn(pool).holder(runId);
      expect(holder?.by).toMatch(new RegExp(` pid ${process.pid}$`));
      for (const args of [[], ['--source-moved']]) {
        const { code, out, lines } = await cli('sync', 'resume', runId, ...args);
        expect(code).toBe(EXIT_DRIVEN_ELSEWHERE);
        expect(JSON.parse(out.at(-1)!)).toMatchObject({ runId, status: 'running', processed: 0 });
        expect(lines).toEqual([
          `${runId} is being driven by ${holder!.by} since ${holder!.since.toISOString()}: left to it, nothing driven or written here; it goes on there (\`idem sync status ${runId} --follow\` shows it)`,
        ]);
      }
      expect((await store.readStream(importStream(runId))).map((e) => e.type)).toEqual(['ImportRunStarted']);
    } finally {
      await driver?.release();
    }
    // Once that driver is gone, the same command drives it here.
    const { code, view } = await idem('sync', 'resume', runId);
    expect(code).toBe(0);
    expect(view).toMatchObject({ runId, status: 'completed', processed: 30 });
  });

  it('refuses a run started against another CRM than its IDEM_CRM_URL: exit 2 naming both, nothing written; resumed against its own, it completes', async () => {
    const { view: started } = await idem('sync', 'run', '--source', 'crm', '--no-wait');
    const elsewhere = 'http://127.0.0.1:9';
    const refused = await cliWith(pool, elsewhere, 'sync', 'resume', started.runId);
    expect(refused.code).toBe(EXIT_ERROR);
    expect(refused.out).toEqual([]);
    expect(refused.lines).toEqual([
      `idem: ${started.runId} is not resumed here: the run started against the contact source crm at ${sandbox.url}, and crm is configured here as ${elsewhere}: nothing was pulled from it (a run is driven only against the source it started with); resume it where crm is ${sandbox.url} (IDEM_CRM_URL=${sandbox.url}); if that CRM now answers at ${elsewhere}, \`idem sync resume ${started.runId} --source-moved\` there drives the run against it`,
    ]);
    expect((await store.readStream(importStream(started.runId))).map((e) => e.type)).toEqual(['ImportRunStarted']);

    const { code, view } = await idem('sync', 'resume', started.runId);
    expect(code).toBe(0);
    expect(view).toMatchObject({ runId: started.runId, status: 'completed', processed: 30 });
  });

  it('with --source-moved, drives a run against the CRM configured here once that CRM moved, recording its new address', async () => {
    // The same CRM at a new address (a proxy on another port): a restarted sandbox, a CRM behind a new host.
    const sockets = new Set<Socket>();
    const moved = createTcpServer((client) => {
      const upstream = connect(Number(new URL(sandbox.url).port), '127.0.0.1');
      [client, upstream].forEach((socket) => sockets.add(socket));
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => moved.listen(0, '127.0.0.1', resolve));
    const movedUrl = `http://127.0.0.1:${(moved.address() as AddressInfo).port}`;
    try {
      const { view: started } = await idem('sync', 'run', '--source', 'crm', '--no-wait');
      const refused = await cliWith(pool, movedUrl, 'sync', 'resume', started.runId);
      expect(refused.code).toBe(EXIT_ERROR);
      expect(refused.lines[0]).toContain(
        `if that CRM now answers at ${movedUrl}, \`idem sync resume ${started.runId} --source-moved\` there drives the run against it`,
      );

      const adopted = await cliWith(pool, movedUrl, 'sync', 'resume', started.runId, '--source-moved');
      expect(adopted.code).toBe(0);
      expect(JSON.parse(adopted.out.at(-1)!)).toMatchObject({ runId: started.runId, status: 'completed', processed: 30 });
      const events = await store.readStream(importStream(started.runId));
      expect(events.find((e) => e.type === 'ImportRunResumed')?.data).toEqual({
        runId: started.runId,
        by: 'cli',
        sourceIdentity: movedUrl,
      });
      expect(events.filter((e) => e.type === 'ImportPageFetched')).toHaveLength(1);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => moved.close(resolve));
    }
  });

  it.each([
    ['failed', true],
    ['running', false],
  ])('refuses a push batch (%s): exit 2 saying to send the batch again, nothing written', async (status, failed) => {
    const runId = await startRun(store, { source: 'crm', startedBy: 'sync', kind: 'push' }, metadata);
    if (failed)
      await appendRunEvents({ store, metadata }, await loadRun(store, runId), [
        { type: 'ImportRunFailed', data: { runId, error: 'abandoned' } },
      ]);
    const before = (await store.readStream(importStream(runId))).map((e) => e.type);

    const { code, out, lines } = await cli('sync', 'resume', runId);

    expect(code).toBe(EXIT_ERROR);
    expect(out).toEqual([]);
    expect(lines).toEqual([
      `idem: ${runId} is a pushed batch (POST /v1/contacts/import), which no driver can go on with: send the batch again (with its Idempotency-Key, if it had one); \`idem sync status ${runId}\` shows what it recorded`,
    ]);
    expect((await store.readStream(importStream(runId))).map((e) => e.type)).toEqual(before);
    expect((await loadRun(store, runId)).status).toBe(status);
  });

  describe('of a file run, which only `idem sync import` goes on with', () => {
    const fileRun = async (end?: 'ImportRunNeedsReview' | 'ImportRunCompleted') => {
      const runId = await startRun(store, { source: 'crm', startedBy: 'sync', kind: 'file', file: 'export.ndjson' }, metadata);
      const reason = 'nothing could be read: its only record was rejected';
      if (end)
        await appendRunEvents({ store, metadata }, await loadRun(store, runId), [
          end === 'ImportRunCompleted' ? { type: end, data: { runId, counts: {} } } : { type: end, data: { runId, reason } },
        ]);
      return { runId, before: (await store.readStream(importStream(runId))).length };
    };

    it('says to import the same file again when it is running (its import was stopped)', async () => {
      const { runId, before } = await fileRun();
      const { code, out, lines } = await cli('sync', 'resume', runId);
      expect([code, out]).toEqual([EXIT_ERROR, []]);
      expect(lines).toEqual([
        `idem: ${runId} is a file import: run \`idem sync import <file> --source crm\` with the same file (export.ndjson) to resume it`,
      ]);
      expect(await store.readStream(importStream(runId))).toHaveLength(before);
      // Leaves no run running behind: the cases of `idem sync list` count the running ones.
      await appendRunEvents({ store, metadata }, await loadRun(store, runId), [
        { type: 'ImportRunCompleted', data: { runId, counts: {} } },
      ]);
    });

    it('says that the same file would stop the same way when it stopped for review, and to fix it', async () => {
      const { runId, before } = await fileRun('ImportRunNeedsReview');
      const { code, out, lines } = await cli('sync', 'resume', runId);
      expect([code, out]).toEqual([EXIT_ERROR, []]);
      expect(lines).toEqual([
        `idem: ${runId} is a file import that stopped needs_review (nothing could be read: its only record was rejected): importing the same file (export.ndjson) again answers the same; fix the file and run \`idem sync import <file> --source crm\` with it (other bytes are a new run)`,
      ]);
      expect(await store.readStream(importStream(runId))).toHaveLength(before);
    });

    it('says that a completed one has nothing to resume', async () => {
      const { runId, before } = await fileRun('ImportRunCompleted');
      const { code, out, lines } = await cli('sync', 'resume', runId);
      expect([code, out]).toEqual([EXIT_ERROR, []]);
      expect(lines).toEqual([`idem: ${runId} is a file import, and it completed: nothing to resume`]);
      expect(await store.readStream(importStream(runId))).toHaveLength(before);
    });
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

describe('idem sync list', () => {
  // More than one page of the read model (100 runs a page); started and driven by no one, so `running`.
  const started: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 130; i++) started.push(await startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata));
    await runReadModelMigrations(databaseUrl);
    const projections = await startProjections({ store, pool, readModels: [syncRunsReadModel], reactors: [] });
    try {
      await waitUntilCaughtUp(store, pool, [readModelProjection(syncRunsReadModel)]);
    } finally {
      await projections.stop();
    }
  });

  const runIdOf = (line: string) => line.split('  ')[0];

  it('lists every run, page after page, each once, and says how many it showed', async () => {
    const { code, out, lines } = await cli('sync', 'list', '--status', 'running');

    expect(code).toBe(0);
    expect(out).toHaveLength(started.length);
    expect(out.map(runIdOf).sort()).toEqual([...started].sort());
    expect(out.every((line) => / {2}pull {2}running {2}0 records {2}crm$/.test(line))).toBe(true);
    expect(lines).toEqual([`${started.length} import runs`]);
  });

  it('stops after --limit runs, the newest, and says there are more', async () => {
    const { out: all } = await cli('sync', 'list');
    const { code, out, lines } = await cli('sync', 'list', '--limit', '7');

    expect(all.length).toBeGreaterThan(started.length);
    expect(code).toBe(0);
    expect(out).toEqual(all.slice(0, 7));
    expect(lines).toEqual(['7 import runs, the newest (--limit 7); there are more']);
  });

  it('says nothing is left out when --limit reaches past the last run', async () => {
    const { out, lines } = await cli('sync', 'list', '--status', 'running', '--limit', String(started.length));

    expect(out).toHaveLength(started.length);
    expect(lines).toEqual([`${started.length} import runs`]);
  });

  it("lists the runs after a page whose last run left the read model before the next page was read (a rebuild's switch)", async () => {
    // Right after the first page is read, its last run leaves the live sync_runs (put back afterwards).
    let left: Record<string, unknown> | undefined;
    const switching = {
      query: async (text: string, params?: unknown[]) => {
        const result = await pool.query(text, params);
        if (!left && /FROM sync_runs/.test(text) && result.rows.length === 100) {
          const { rows } = await pool.query('DELETE FROM sync_runs WHERE run_id = $1 RETURNING *', [result.rows.at(-1).run_id]);
          left = rows[0] as Record<string, unknown>;
        }
        return result;
      },
    } as unknown as Pool;
    try {
      const { code, out, lines } = await cliOn(switching, 'sync', 'list', '--status', 'running');

      expect(left).toBeDefined();
      const shown = out.map(runIdOf);
      expect(code).toBe(0);
      expect(shown).toHaveLength(started.length);
      expect(new Set(shown).size).toBe(started.length);
      expect([...shown].sort()).toEqual([...started].sort());
      expect(lines).toEqual([`${started.length} import runs`]);
    } finally {
      if (left)
        await pool.query('INSERT INTO sync_runs SELECT * FROM json_populate_record(NULL::sync_runs, $1::json)', [JSON.stringify(left)]);
    }
  });
});
