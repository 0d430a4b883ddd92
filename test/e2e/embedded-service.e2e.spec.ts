import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { testEvent } from '../contracts/test-events';
import { runServiceToExit, startService } from '../harness/service-process';

const embeddedUrl = (port: number) => `postgres://postgres:idem-embedded@127.0.0.1:${port}/idem`;

describe('the service on embedded defaults', () => {
  it('starts its own PostgreSQL, is ready, and keeps the data across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'idem-e2e-'));
    const first = await startService({ IDEM_DATA_DIR: dataDir });
    const stream = `order-${randomUUID()}`;
    try {
      expect(first.output()).toContain(dataDir);
      expect(first.output()).toContain('dev-storefront');
      const ready = await fetch(`${first.apiUrl}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'up', checks: { database: { status: 'up' }, eventStore: { status: 'up' } } });
      const pool = new Pool({ connectionString: embeddedUrl(first.databasePort!) });
      await new PostgresEventStore(pool).append(stream, [testEvent('ChargeRequested', { amount: 1200 })], 'no_stream');
      await pool.end();
    } finally {
      expect(await first.stop('SIGTERM')).toBe(0);
    }

    const second = await startService({ IDEM_DATA_DIR: dataDir });
    try {
      const pool = new Pool({ connectionString: embeddedUrl(second.databasePort!) });
      const events = await new PostgresEventStore(pool).readStream(stream);
      await pool.end();
      expect(events.map((e) => [e.type, e.data.amount])).toEqual([['ChargeRequested', 1200]]);
    } finally {
      await second.stop('SIGTERM');
    }
  });

  it('survives a SIGKILL of the previous run (stale pid file) and starts again on the same data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'idem-e2e-kill-'));
    const first = await startService({ IDEM_DATA_DIR: dataDir });
    await first.stop('SIGKILL');
    const second = await startService({ IDEM_DATA_DIR: dataDir });
    try {
      expect((await fetch(`${second.apiUrl}/health/ready`)).status).toBe(200);
    } finally {
      await second.stop('SIGTERM');
    }
  });

  it('answers unknown routes with problem+json', async () => {
    const service = await startService({ IDEM_DATA_DIR: mkdtempSync(join(tmpdir(), 'idem-e2e-404-')) });
    try {
      const response = await fetch(`${service.apiUrl}/v1/nothing-here`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ status: 404, code: 'ROUTE.NOT_FOUND' });
    } finally {
      await service.stop();
    }
  });
});

describe('start-up with bad configuration', () => {
  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://db/idem' }, 'DATABASE_URL'],
    [{ NODE_ENV: 'production' }, 'IDEM_TOKENS'],
  ])('stops with exit code 1 and names the variable (%j)', async (env, variable) => {
    const { code, output } = await runServiceToExit(env);
    expect(code).toBe(1);
    expect(output).toMatch(new RegExp(`Invalid configuration:[\\s\\S]*${variable} `));
  });
});
