/**
 * POST/GET /v1/sync/runs over the real api, pulling from a sandbox CRM of 600 contacts, with the
 * sync_runs projection running as a worker would run it (the list reads that read model).
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { idemFeatures } from '../../../src/app.module';
import { createHttpApp } from '../../../src/bootstrap/http-app';
import { openReadModels } from '../../../src/bootstrap/read-models';
import { waitFor } from '../../../test/projections/projection-harness';
import { auth, type TestApp } from '../../../test/harness/test-app';
import type { Sandbox } from '../../sandbox';
import { startSyncRunsApp, type SyncRunsApp } from '../../../test/harness/sync-runs-app';
import { startRun } from '../pull-run/start-run';
import { importStream } from '../contact.events';
import { runningPullRuns } from '../../../projections/sync-runs/sync-runs.queries';

let fixture: SyncRunsApp;
let harness: TestApp;
let crm: Sandbox;
let app: NestFastifyApplication;

beforeAll(async () => {
  fixture = await startSyncRunsApp('contacts_sync_runs', { seed: 3, size: 600 });
  ({ harness, crm, app } = fixture);
});
afterAll(() => fixture.close());

const post = (payload: unknown, role: 'sync' | 'support' = 'sync') =>
  app.inject({ method: 'POST', url: '/v1/sync/runs', headers: auth(role), payload: payload as object });
const get = (url: string, role: 'sync' | 'support' | 'auditor' = 'support') => app.inject({ method: 'GET', url, headers: auth(role) });

describe('POST /v1/sync/runs', () => {
  it('starts a pull run that imports every CRM contact, with its progress and counts on GET', async () => {
    const started = await post({ source: 'crm' });
    expect(started.statusCode).toBe(202);
    const { runId } = started.json();
    expect(started.json()).toMatchObject({ runId, source: 'crm', kind: 'pull', status: 'running' });
    // Which CRM `crm` was here is recorded with the run: no driver configured with another one drives it.
    const [first] = await harness.runtime.eventStore.readStream(importStream(runId), { maxCount: 1 });
    expect(first.data).toMatchObject({ source: 'crm', sourceIdentity: crm.url });

    const done = await waitFor('the run to complete', async () => {
      const view = (await get(`/v1/sync/runs/${runId}`)).json();
      return view.status === 'completed' && view;
    });
    expect(done).toMatchObject({ processed: 600 });
    // Every outcome of issue 14 is counted, the ones that did not happen as 0.
    const none = { updated: 0, unchanged: 0, skipped_stale: 0, duplicate: 0, deleted: 0, rejected: 0, conflict: 0 };
    expect(done.counts).toEqual({ imported: 600, ...none });
    // The list reads the sync_runs read model: wait for the projection to show the completion.
    const listed = (status: string) =>
      get(`/v1/sync/runs?status=${status}`, 'sync').then((r) => r.json().runs.map((run: { runId: string }) => run.runId) as string[]);
    await waitFor('the run to be listed as completed', async () => (await listed('completed')).includes(runId));
    expect(await listed('running')).not.toContain(runId);
    const inList = (await get('/v1/sync/runs', 'sync')).json().runs.find((run: { runId: string }) => run.runId === runId);
    expect(inList).toEqual((await get(`/v1/sync/runs/${runId}`)).json());
    expect((await get('/v1/contacts/crm/c599', 'auditor')).json()).toMatchObject({ sourceId: 'c599', version: 1 });
  });

  it.each<[string, unknown, 'sync' | 'support', number, string]>([
    ['an unknown source', { source: 'nowhere' }, 'sync', 422, 'CONTACTS.UNKNOWN_SOURCE'],
    ['a missing source', {}, 'sync', 400, 'REQUEST.INVALID'],
    ['a bad since', { source: 'crm', since: 'yesterday' }, 'sync', 400, 'REQUEST.INVALID'],
    ['a since that is no date (month 13)', { source: 'crm', since: '2026-13-45T00:00:00Z' }, 'sync', 400, 'REQUEST.INVALID'],
    ['a since with an impossible offset', { source: 'crm', since: '2026-01-01T00:00:00+25:00' }, 'sync', 400, 'REQUEST.INVALID'],
    ['an unknown field', { source: 'crm', pages: 3 }, 'sync', 400, 'REQUEST.INVALID'],
    ['the support role', { source: 'crm' }, 'support', 403, 'AUTH.ROLE_FORBIDDEN'],
  ])('refuses %s with a problem+json 4xx and starts no run', async (_label, payload, role, status, code) => {
    const runs = async () =>
      (await harness.runtime.pool.query(`SELECT count(*)::int AS n FROM idem_events WHERE stream_name LIKE 'import-%'`)).rows[0].n;
    const before = await runs();
    const response = await post(payload, role);
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status, code });
    expect(await runs()).toBe(before);
  });

  it('answers a repeat under one Idempotency-Key with the run the first started, and refuses the key with another body', async () => {
    const since = '2099-01-01T00:00:00Z';
    const keyed = (payload: object, key = 'start-nightly-1') =>
      app.inject({ method: 'POST', url: '/v1/sync/runs', headers: { ...auth('sync'), 'idempotency-key': key }, payload });
    const first = await keyed({ source: 'crm', since });
    expect(first.statusCode).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const { runId } = first.json();

    const again = await keyed({ since, source: 'crm' });
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toMatchObject({ runId, source: 'crm', kind: 'pull' });

    // The same instant spelled otherwise is the same request.
    const respelled = await keyed({ source: 'crm', since: '2099-01-01T01:00:00.000+01:00' });
    expect(respelled.statusCode).toBe(202);
    expect(respelled.json()).toMatchObject({ runId });

    const later = await keyed({ source: 'crm', since: '2099-01-01T00:00:01Z' });
    expect(later.statusCode).toBe(422);
    const other = await keyed({ source: 'crm' });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY.REUSED' });
    const started = (await harness.runtime.eventStore.readStream(importStream(runId))).filter((e) => e.type === 'ImportRunStarted');
    expect(started).toHaveLength(1);
    const { rows } = await harness.runtime.pool.query(
      `SELECT count(*)::int AS n FROM idem_events WHERE event_type = 'ImportRunStarted' AND data->>'since' = $1`,
      [since],
    );
    expect(rows[0].n).toBe(1);

    expect((await keyed({ source: 'crm', since }, 'start-nightly-2')).json().runId).not.toBe(runId);
  });

  it('names a missing source with the sources there are, and only that', async () => {
    const response = await post({});
    expect(response.json()).toMatchObject({
      errors: [{ field: 'source', message: 'source is required: the name of a contact source (crm)' }],
    });
  });

  it('pages the list with limit and cursor (each run once, in order) and refuses unknown query parameters naming them', async () => {
    const metadata = { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } };
    const started: string[] = [];
    for (let i = 0; i < 3; i++)
      started.push(await startRun(harness.runtime.eventStore, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata));
    const whole = await waitFor('the runs to be projected', async () => {
      const runs = (await get('/v1/sync/runs', 'sync')).json().runs.map((run: { runId: string }) => run.runId) as string[];
      return started.every((runId) => runs.includes(runId)) && runs;
    });
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { runs: Array<{ runId: string }>; next: string | null } = (
        await get(`/v1/sync/runs?limit=2${cursor ? `&cursor=${cursor}` : ''}`, 'sync')
      ).json();
      expect(page.runs.length).toBeLessThanOrEqual(2);
      paged.push(...page.runs.map((run) => run.runId));
      cursor = page.next;
    } while (cursor);
    expect(paged).toEqual(whole);

    for (const [url, field] of [
      ['/v1/sync/runs?status[]=completed', 'status[]'],
      ['/v1/sync/runs?page=2', 'page'],
      ['/v1/sync/runs?limit=0', 'limit'],
      ['/v1/sync/runs?limit=1001', 'limit'],
      ['/v1/sync/runs?cursor=a%20b', 'cursor'],
    ]) {
      const response = await get(url, 'sync');
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().errors).toEqual([expect.objectContaining({ field })]);
    }
  });

  it("pages on after a page whose last run left the read model before the next page was asked for (a rebuild's switch)", async () => {
    const metadata = { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } };
    const started: string[] = [];
    for (let i = 0; i < 4; i++)
      started.push(await startRun(harness.runtime.eventStore, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata));
    const whole = await waitFor('the runs to be projected', async () => {
      const runs = (await get('/v1/sync/runs', 'sync')).json().runs.map((run: { runId: string }) => run.runId) as string[];
      return started.every((runId) => runs.includes(runId)) && runs;
    });
    const first = (await get('/v1/sync/runs?limit=2', 'sync')).json() as { runs: Array<{ runId: string }>; next: string };
    expect(first.runs.map((run) => run.runId)).toEqual(whole.slice(0, 2));
    const { pool } = harness.runtime;
    const { rows } = await pool.query('DELETE FROM sync_runs WHERE run_id = $1 RETURNING *', [whole[1]]);
    try {
      const second = await get(`/v1/sync/runs?limit=2&cursor=${first.next}`, 'sync');

      expect(second.statusCode).toBe(200);
      expect(second.json().runs.map((run: { runId: string }) => run.runId)).toEqual(whole.slice(2, 4));
    } finally {
      await pool.query('INSERT INTO sync_runs SELECT * FROM json_populate_record(NULL::sync_runs, $1::json)', [JSON.stringify(rows[0])]);
    }
  });

  it('refuses a cursor this service did not write (a run id, made up, a push batch) with 400 naming cursor, not an empty last page', async () => {
    const push = await app.inject({
      method: 'POST',
      url: '/v1/contacts/import',
      headers: auth('sync'),
      payload: { source: 'crm', records: [{ sourceId: 'cursor-push', version: 1, fields: {} }] },
    });
    expect(push.statusCode).toBe(200);
    for (const cursor of ['zzz', 'run.nope', push.json().runId as string]) {
      const response = await get(`/v1/sync/runs?limit=2&cursor=${encodeURIComponent(cursor)}`, 'sync');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'REQUEST.INVALID', errors: [expect.objectContaining({ field: 'cursor' })] });
    }
  });

  it('refuses status=failed with a 400 saying why (only pushed batches end failed, and the list holds none) instead of an empty list', async () => {
    const answer = await get('/v1/sync/runs?status=failed');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      code: 'REQUEST.INVALID',
      errors: [{ field: 'status', message: expect.stringContaining('only a pushed batch (POST /v1/contacts/import) ends failed') }],
    });
  });

  it('answers 404 for an unknown run and 400 for an unknown status', async () => {
    expect((await get('/v1/sync/runs/run.nope')).statusCode).toBe(404);
    expect((await get('/v1/sync/runs?status=lost')).statusCode).toBe(400);
    expect((await get('/v1/sync/runs/run.nope', 'auditor')).statusCode).toBe(403);
  });
});

describe("the worker's orphan sweep candidates (runningPullRuns)", () => {
  it('are the pull runs the read model shows running, never a push run', async () => {
    const metadata = { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } };
    // Started and driven by no one, as by an api that died at once.
    const runId = await startRun(harness.runtime.eventStore, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
    const pushed = await app.inject({
      method: 'POST',
      url: '/v1/contacts/import',
      headers: auth('sync'),
      payload: { source: 'crm', records: [{ sourceId: 'sweep-1', fields: {} }] },
    });
    expect(pushed.statusCode).toBe(200);
    await waitFor(
      'the push run to be projected',
      async () => (await harness.runtime.pool.query('SELECT 1 FROM sync_runs WHERE run_id = $1', [pushed.json().runId])).rowCount === 1,
    );
    const candidates = await waitFor('the pull run to be projected as running', async () => {
      const running = await runningPullRuns(harness.runtime.pool);
      return running.includes(runId) && running;
    });
    expect(candidates).not.toContain(pushed.json().runId);
  });
});

describe('POST /v1/sync/runs in production without IDEM_CRM_URL', () => {
  it('answers 422 CONTACTS.SOURCE_NOT_CONFIGURED and starts nothing, though the provider (Stripe) is configured', async () => {
    const { config } = harness.runtime;
    const production = { ...config, production: true, payments: { ...config.payments, stripeApiBase: 'https://api.stripe.com' } };
    const features = idemFeatures({ paymentGateway: () => harness.gateway });
    const productionReadModels = await openReadModels(harness.runtime, features, 1);
    const productionApp = await createHttpApp(
      { ...harness.runtime, config: production },
      { features, readModels: productionReadModels },
      { logger: false },
    );
    try {
      await productionApp.getHttpAdapter().getInstance().ready();
      const runsBefore = await harness.runtime.pool.query(`SELECT count(*) AS n FROM idem_events WHERE stream_name LIKE 'import-run.%'`);
      const response = await productionApp.inject({
        method: 'POST',
        url: '/v1/sync/runs',
        headers: auth('sync'),
        payload: { source: 'crm' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        status: 422,
        code: 'CONTACTS.SOURCE_NOT_CONFIGURED',
        title: expect.stringContaining('IDEM_CRM_URL'),
      });
      const runsAfter = await harness.runtime.pool.query(`SELECT count(*) AS n FROM idem_events WHERE stream_name LIKE 'import-run.%'`);
      expect(runsAfter.rows[0].n).toBe(runsBefore.rows[0].n);
    } finally {
      await productionApp.close();
      await productionReadModels.close();
    }
  });
});
