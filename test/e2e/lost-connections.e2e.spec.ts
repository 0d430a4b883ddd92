/**
 * PostgreSQL dropping every connection of the service at once (what a backend crash makes it do: it
 * resets them all) while a pull run imports and projects: the service stays up, answers again once
 * it has reconnected, and the run still ends with every contact imported once. Before, a client held
 * out of its pool at that moment had no 'error' listener and the whole process exited
 * (src/database/lost-connections.ts has the deterministic case).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startService, type ServiceProcess } from '../harness/service-process';
import { waitUntil } from '../harness/wait-until';

const CONTACTS = 4000;

jest.setTimeout(300_000);
describe('the service when PostgreSQL drops its connections', () => {
  let service: ServiceProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'idem-e2e-lost-'));
  beforeAll(async () => {
    service = await startService({ IDEM_DATA_DIR: dataDir, IDEM_SANDBOX_PORT: '0' });
  });
  afterAll(async () => {
    await service.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true }); // the service's cluster, some 50 MB
  });

  const api = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${service.apiUrl}${path}`, {
      ...init,
      headers: { authorization: 'Bearer dev-sync', 'content-type': 'application/json' },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('stays up through a reset of every connection during a pull run, and the run imports each contact once', async () => {
    const crm = `${service.sandboxUrl}/crm/_control`;
    const post = (url: string, body: unknown) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post(`${crm}/reset`, { size: CONTACTS })).status).toBe(200);

    const started = await api('/v1/sync/runs', { method: 'POST', body: JSON.stringify({ source: 'crm' }) });
    expect(started.status).toBe(202);
    const runId = started.body.runId as string;
    await waitUntil(
      () => api(`/v1/sync/runs/${runId}`),
      (run) => (run.body.processed as number) > 0,
      60_000,
    );

    const admin = new Client({ connectionString: `postgres://postgres:idem-embedded@127.0.0.1:${service.databasePort}/idem` });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      const { rows } = await admin.query<{ ended: number }>(
        `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 10000))::int AS ended
           FROM pg_stat_activity WHERE datname = 'idem' AND pid <> pg_backend_pid()`,
      );
      expect(rows[0].ended).toBeGreaterThan(1);
    } finally {
      await admin.end();
    }

    const ready = await waitUntil(
      () => fetch(`${service.apiUrl}/health/ready`).then((response) => response.status),
      (status) => status === 200,
      60_000,
    );
    expect(ready).toBe(200);
    expect(service.child.exitCode).toBeNull();
    const run = await waitUntil(
      () => api(`/v1/sync/runs/${runId}`),
      (view) => view.body.status !== 'running',
      120_000,
    );
    expect(run.body).toMatchObject({ status: 'completed', processed: CONTACTS, counts: expect.objectContaining({ imported: CONTACTS }) });
  });
});
