/**
 * A pull run is driven only against the source it started with. Two sandbox CRMs (A and B, other seeds)
 * stand for two CRMs that workers reach under the same name `crm`: a run started against A whose
 * driver process is SIGKILLed is not finished against B. A driver process told to drive it with B
 * stops it as `needs_review` with a reason naming both addresses; a worker whose IDEM_CRM_URL is B
 * leaves it running as it was and says why once (run-drivers.ts: sourceRefusal). Either way B is never
 * asked for a page and nothing from B reaches a contact stream; driven against A, the run finishes
 * with A's records, each imported once.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { waitFor } from '../../../test/projections/projection-harness';
import { createSandbox, type Sandbox } from '../../sandbox';
import { contactSourcesAt } from '../contact-source/configured-sources';
import { driveRun, loadRun, type RunDriverDeps } from './drive-run';
import { resumeUnfinishedRuns } from './resume-runs';
import { isLeftAlone } from './run-drivers';
import { runLocksOn } from './run-lock';
import { resumeRun, startPullRun, unfinishedRuns } from './start-run';

const ROOT = join(__dirname, '..', '..', '..');
const SIZE = 600;
const PAGE_SIZE = 200;
const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };

let databaseUrl: string;
let pool: Pool;
let store: PostgresEventStore;
let crmA: Sandbox;
let crmB: Sandbox;

beforeAll(async () => {
  databaseUrl = await createTestDatabase('contacts_pull_source_moved');
  pool = new Pool({ connectionString: databaseUrl, max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  [crmA, crmB] = await Promise.all([createSandbox({ crm: { seed: 31, size: SIZE } }), createSandbox({ crm: { seed: 32, size: SIZE } })]);
});
afterAll(async () => {
  await Promise.all([crmA.close(), crmB.close()]);
  await pool.end();
});
beforeEach(async () => {
  for (const crm of [crmA, crmB])
    await fetch(`${crm.url}/crm/_control/reset`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
});

const depsOn = (crm: Sandbox): RunDriverDeps => ({
  store,
  sources: contactSourcesAt(crm.url),
  pageSize: PAGE_SIZE,
  backoffMs: 5,
  metadata,
});
/** Pages a sandbox CRM served since its last reset. */
const pagesServed = async (crm: Sandbox) => {
  const { byPage } = (await (await fetch(`${crm.url}/crm/_control/requests`)).json()) as { byPage: Record<string, number> };
  return Object.values(byPage).reduce((sum, n) => sum + n, 0);
};
const contactEvents = async () =>
  (await pool.query(`SELECT count(*)::int AS n FROM idem_events WHERE stream_name LIKE 'contact-crm.%'`)).rows[0].n as number;
/** The fields of every contact, as its last event holds them, by source id. */
const contactFields = async () => {
  const { rows } = await pool.query(
    `SELECT DISTINCT ON (stream_name) data->>'sourceId' AS id, data->'fields' AS fields
       FROM idem_events WHERE stream_name LIKE 'contact-crm.%' ORDER BY stream_name, revision DESC`,
  );
  return new Map(rows.map((r: { id: string; fields: unknown }) => [r.id, r.fields]));
};
/** Every contact of a sandbox CRM as its export serves it, by source id. */
async function exportOf(crm: Sandbox) {
  const records = new Map<string, unknown>();
  for (let cursor: string | null = null; ;) {
    const query: string = cursor ? `&cursor=${cursor}` : '';
    const page = (await (await fetch(`${crm.url}/crm/contacts?limit=${PAGE_SIZE}${query}`)).json()) as {
      contacts: Array<{ sourceId: string; fields: unknown }>;
      nextCursor: string | null;
    };
    page.contacts.forEach((c) => records.set(c.sourceId, c.fields));
    if (!page.nextCursor) return records;
    cursor = page.nextCursor;
  }
}
const movedReason = (runId: string) =>
  `the run started against the contact source crm at ${crmA.url}, and crm is configured here as ${crmB.url}: nothing was pulled from it (a run is driven only against the source it started with); resume it where crm is ${crmA.url} (IDEM_CRM_URL=${crmA.url}); if that CRM now answers at ${crmB.url}, \`idem sync resume ${runId} --source-moved\` there drives the run against it`;

/** drive-run.process.ts against `crmUrl`; resolves with its report lines once it exits (SIGKILLed when `kill` says so). */
function driverProcess(runId: string, crmUrl: string, env: Record<string, string>, kill: (line: { event: string }) => boolean) {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'bench', 'lib', 'register.js'), join(__dirname, 'drive-run.process.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, CRM_URL: crmUrl, RUN_ID: runId, PAGE_SIZE: String(PAGE_SIZE), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<{ event: string; [k: string]: unknown }> = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = JSON.parse(text) as { event: string };
    lines.push(line);
    if (kill(line)) child.kill('SIGKILL');
  });
  return exited.then(() => lines);
}

it('has two CRMs whose exports differ (else importing from the wrong one could not be told)', async () => {
  const [a, b] = await Promise.all([exportOf(crmA), exportOf(crmB)]);
  expect(a.size).toBe(SIZE);
  expect([...a].filter(([id, fields]) => JSON.stringify(b.get(id)) !== JSON.stringify(fields)).length).toBeGreaterThan(0);
});

describe('a pull run started against CRM A', () => {
  it('whose driver was SIGKILLed is not finished by a driver configured with CRM B, and finishes when resumed against A', async () => {
    const before = await contactEvents();
    const runId = await startPullRun(store, contactSourcesAt(crmA.url), { source: 'crm', startedBy: 'test' }, metadata);
    expect((await loadRun(store, runId)).started?.sourceIdentity).toBe(crmA.url);
    // Killed with its second page's contacts written and the page not recorded.
    const killed = await driverProcess(runId, crmA.url, { PAUSE_AT_PAGE: '2' }, (line) => line.event === 'paused');
    expect(killed.map((l) => l.event)).toEqual(['started', 'page', 'paused']);
    const eventsFromA = await contactEvents();
    expect(eventsFromA).toBe(before + 2 * PAGE_SIZE);

    const onB = await driverProcess(runId, crmB.url, {}, () => false);
    expect(onB.at(-1)).toMatchObject({ event: 'done', status: 'needs_review', processed: PAGE_SIZE });
    expect(await loadRun(store, runId)).toMatchObject({ status: 'needs_review', pages: 1, reason: movedReason(runId) });
    expect(await pagesServed(crmB)).toBe(0);
    expect(await contactEvents()).toBe(eventsFromA);

    await resumeRun(store, runId, 'support', metadata);
    const finished = await driveRun(depsOn(crmA), runId);
    expect(finished).toMatchObject({ status: 'completed', processed: SIZE, pages: SIZE / PAGE_SIZE });
    expect(await contactEvents()).toBe(before + SIZE);
    expect(await contactFields()).toEqual(await exportOf(crmA));
  }, 120_000);

  it('left running is left alone by a worker configured with CRM B, which asks B for nothing and says why once', async () => {
    const runId = await startPullRun(store, contactSourcesAt(crmA.url), { source: 'crm', startedBy: 'test' }, metadata);
    const stop = new AbortController();
    const left = await driveRun({ ...depsOn(crmA), signal: stop.signal, onPage: () => stop.abort() }, runId);
    // Told to stop once its first page was recorded, it records the second, imported meanwhile, and stops.
    expect(left).toMatchObject({ status: 'running', pages: 2, processed: 2 * PAGE_SIZE });
    const before = await contactEvents();
    await waitFor('the run to be among the unfinished ones', async () => (await unfinishedRuns(store)).includes(runId));

    const warn = jest.spyOn(Logger.prototype, 'warn');
    let sweeps = 0;
    const candidates = () => (sweeps++, unfinishedRuns(store));
    const worker = await resumeUnfinishedRuns({ ...depsOn(crmB), locks: runLocksOn(pool) }, { everyMs: 20, candidates });
    let lines: string[];
    try {
      // Its start and three sweeps after it have all met the run.
      await waitFor('three sweeps of the worker', async () => sweeps > 3);
      lines = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes(runId));
    } finally {
      await worker.stop();
      warn.mockRestore();
    }
    expect(isLeftAlone(runId)).toBe(true);
    expect(await loadRun(store, runId)).toEqual(left);
    expect(lines).toEqual([
      `import run ${runId} is left running for a process that reaches its source as it started: ${movedReason(runId)}`,
    ]);
    expect(await pagesServed(crmB)).toBe(0);
    expect(await contactEvents()).toBe(before);
    // Where its CRM is configured, it goes on from its last recorded page.
    const finished = await driveRun(depsOn(crmA), runId);
    expect(finished).toMatchObject({ status: 'completed', processed: SIZE, pages: SIZE / PAGE_SIZE });
    expect(await contactFields()).toEqual(await exportOf(crmA));
  });
});

describe('a pull run whose CRM answers an empty next cursor', () => {
  it('completes with that page: "" is the end of the source, not its first page again', async () => {
    const pages = [
      { records: [{ sourceId: 'e1', version: 1, fields: { n: 1 } }], nextCursor: 'p2' },
      { records: [{ sourceId: 'e2', version: 1, fields: { n: 2 } }], nextCursor: '' },
    ];
    const asked: Array<string | null> = [];
    const source = {
      name: 'crm',
      fetchPage: ({ cursor }: { cursor: string | null }) => (asked.push(cursor), Promise.resolve(pages[cursor === 'p2' ? 1 : 0])),
    };
    const before = await contactEvents();
    const runId = await startPullRun(store, () => source, { source: 'crm', startedBy: 'test' }, metadata);
    const done = await driveRun({ ...depsOn(crmA), sources: () => source }, runId);
    expect(done).toMatchObject({ status: 'completed', pages: 2, processed: 2, counts: { imported: 2 } });
    expect(asked).toEqual([null, 'p2']);
    expect(await contactEvents()).toBe(before + 2);
  });
});
