/**
 * Which CRM a pull run is tied to, as operators see it: POST, GET /v1/sync/runs/{runId}, the list (the
 * sync_runs read model, projected as a worker would) and `idem sync list` show the address the run
 * started with, and after `idem sync resume --source-moved` the address it is driven against since.
 * A run recorded without one shows null.
 */
import { PassThrough } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { runCli } from '../../../src/cli';
import type { CliContext } from '../../../src/cli/cli-context';
import { loadConfig } from '../../../src/config/config';
import { waitFor } from '../../../test/projections/projection-harness';
import { auth, type TestApp } from '../../../test/harness/test-app';
import type { Sandbox } from '../../sandbox';
import { startSyncRunsApp, type SyncRunsApp } from '../../../test/harness/sync-runs-app';
import { startRun } from '../pull-run/start-run';

let fixture: SyncRunsApp;
let harness: TestApp;
let crm: Sandbox;
let app: NestFastifyApplication;

beforeAll(async () => {
  fixture = await startSyncRunsApp('contacts_run_source', { seed: 4, size: 40 });
  ({ harness, crm, app } = fixture);
});
afterAll(() => fixture.close());

const metadata = { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } };
const getRun = async (runId: string) =>
  (await app.inject({ method: 'GET', url: `/v1/sync/runs/${runId}`, headers: auth('support') })).json();
const listed = async (runId: string) =>
  (await app.inject({ method: 'GET', url: '/v1/sync/runs?limit=1000', headers: auth('sync') }))
    .json()
    .runs.find((run: { runId: string }) => run.runId === runId);

/** `idem` against this app's database, with IDEM_CRM_URL at the sandbox CRM. */
async function idem(...args: string[]) {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const { pool, eventStore: store, databaseUrl } = harness.runtime;
  const config = loadConfig({ DATABASE_URL: databaseUrl, IDEM_CRM_URL: crm.url, LOG_LEVEL: 'error' });
  const context: CliContext = {
    readModels: [],
    reactors: [],
    config: () => config,
    runtime: () => Promise.resolve({ pool, store, databaseUrl }),
    stdout,
    stderr: new PassThrough(),
    exitCode: 0,
  };
  const code = await runCli(args, context);
  return { code, out: out.split('\n').filter((line) => line !== '') };
}

describe('the CRM a pull run is tied to', () => {
  it('is shown with the run started over HTTP: on POST, on GET and in the list', async () => {
    const started = await app.inject({ method: 'POST', url: '/v1/sync/runs', headers: auth('sync'), payload: { source: 'crm' } });
    expect(started.statusCode).toBe(202);
    const { runId } = started.json();
    expect(started.json()).toMatchObject({ runId, source: 'crm', sourceIdentity: crm.url });

    const done = await waitFor('the run to complete and be listed so', async () => {
      const inList = await listed(runId);
      return inList?.status === 'completed' && inList;
    });
    expect(done).toMatchObject({ sourceIdentity: crm.url });
    expect(await getRun(runId)).toEqual(done);
  });

  it('is the new address after `idem sync resume --source-moved`, on GET, in the list and in `idem sync list`', async () => {
    // Started against the CRM at an address it no longer answers at (a restarted sandbox, a new host).
    const before = 'http://127.0.0.1:9';
    const runId = await startRun(
      harness.runtime.eventStore,
      { source: 'crm', startedBy: 'test', kind: 'pull', sourceIdentity: before },
      metadata,
    );
    expect(await getRun(runId)).toMatchObject({ status: 'running', sourceIdentity: before });
    await waitFor('the run to be listed with its CRM', async () => (await listed(runId))?.sourceIdentity === before);

    const resumed = await idem('sync', 'resume', runId, '--source-moved');

    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.out.at(-1)!)).toMatchObject({ runId, status: 'completed', sourceIdentity: crm.url });
    expect(await getRun(runId)).toMatchObject({ status: 'completed', processed: 40, sourceIdentity: crm.url });
    const inList = await waitFor('the list to show the resumed run completed', async () => {
      const run = await listed(runId);
      return run?.status === 'completed' && run;
    });
    expect(inList).toEqual(await getRun(runId));
    const lines = (await idem('sync', 'list', '--status', 'completed')).out;
    expect(lines.find((line) => line.startsWith(`${runId}  `))).toBe(`${runId}  pull  completed  40 records  crm at ${crm.url}`);
  });

  it('is null for a run recorded without one (before runs named their CRM), and `idem sync list` names only the source', async () => {
    const runId = await startRun(harness.runtime.eventStore, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
    expect(await getRun(runId)).toMatchObject({ sourceIdentity: null });
    expect(await waitFor('the run to be listed', () => listed(runId))).toMatchObject({ sourceIdentity: null });
    const lines = (await idem('sync', 'list', '--status', 'running')).out;
    expect(lines.find((line) => line.startsWith(`${runId}  `))).toBe(`${runId}  pull  running  0 records  crm`);
  });

  it('is in the OpenAPI document of POST, GET and the list: a string or null', async () => {
    type Schema = { properties: Record<string, Schema & { type?: string; nullable?: boolean }>; items?: Schema };
    const document = (await app.inject({ method: 'GET', url: '/docs/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, { content: { 'application/json': { schema: Schema } } }> }>>;
    }>();
    const answer = (path: string, method: string, status: string) =>
      document.paths[path][method].responses[status].content['application/json'].schema;
    const documented = [
      answer('/v1/sync/runs', 'post', '202'),
      answer('/v1/sync/runs/{runId}', 'get', '200'),
      answer('/v1/sync/runs', 'get', '200').properties.runs.items!,
    ];
    for (const run of documented) expect(run.properties.sourceIdentity).toMatchObject({ type: 'string', nullable: true });
  });
});
