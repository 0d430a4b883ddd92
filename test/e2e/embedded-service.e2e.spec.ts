import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { testEvent } from '../contracts/test-events';
import { runServiceToExit, startService } from '../harness/service-process';

const embeddedUrl = (port: number) => `postgres://postgres:idem-embedded@127.0.0.1:${port}/idem`;

/** A new data directory under the system's temp directory, removed after the file (each holds a cluster of some 50 MB). */
const dataDirs: string[] = [];
const newDataDir = (prefix: string) => {
  dataDirs.push(mkdtempSync(join(tmpdir(), prefix)));
  return dataDirs[dataDirs.length - 1];
};
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the service on embedded defaults', () => {
  it('starts its own PostgreSQL, is ready, and keeps the data across a restart', async () => {
    const dataDir = newDataDir('idem-e2e-');
    const first = await startService({ IDEM_DATA_DIR: dataDir });
    const stream = `order-${randomUUID()}`;
    try {
      expect(first.output()).toContain(dataDir);
      expect(first.output()).toContain('dev-storefront');
      // What README tells a CLI user to copy from the banner.
      expect(first.output()).toContain(`DATABASE_URL=${embeddedUrl(first.databasePort!)}`);
      // Schedules are Idem's own: the job queue does not look for a crontab file (and warn) at start.
      expect(first.output()).not.toContain('crontab');
      // The banner says where the pages are, the features' own included (Feature.bannerLines).
      expect(first.output()).toContain(`admin screen   ${first.apiUrl}/admin`);
      expect((await fetch(`${first.apiUrl}/admin`)).status).toBe(200);
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

  it('survives a SIGKILL of the previous run (stale pid file), starts again on the same data, and stops gracefully on SIGHUP', async () => {
    const dataDir = newDataDir('idem-e2e-kill-');
    const first = await startService({ IDEM_DATA_DIR: dataDir });
    await first.stop('SIGKILL');
    const second = await startService({ IDEM_DATA_DIR: dataDir });
    let code: number | null | undefined;
    try {
      expect((await fetch(`${second.apiUrl}/health/ready`)).status).toBe(200);
    } finally {
      // A closed terminal: the same graceful stop as SIGINT, not PostgreSQL stopped under running work.
      code = await second.stop('SIGHUP');
    }
    expect(code).toBe(0);
    const output = second.output();
    expect(output).toContain('SIGHUP: stopping');
    // It says what it is doing while it starts, and each part as it stops, the database last.
    expect(output).toContain(`Idem starting: embedded PostgreSQL in ${dataDir}`);
    expect(output).toMatch(/stopped: http api[^\n]*\n(.*\n)*stopped: database/);
    // PostgreSQL is stopped last, not at the signal: a connection it ends ("terminating connection due
    // to administrator command", e.g. the job queue's listener) may only be reported once the rest stopped.
    const ended = output.indexOf('administrator command');
    if (ended !== -1) expect(ended).toBeGreaterThan(output.indexOf('stopped: sandbox'));
  });

  it('charges an order through its own sandbox, takes its signed webhook, and stops cleanly on SIGINT', async () => {
    const dataDir = newDataDir('idem-e2e-charge-');
    const service = await startService({ IDEM_DATA_DIR: dataDir, IDEM_SANDBOX_PORT: '0' });
    const orderId = `e2e-${randomUUID()}`;
    let code: number | null;
    try {
      expect(service.sandboxUrl).toBeDefined();
      // What README tells a CLI user to copy so that `idem recover` checks charges with this instance's
      // sandbox and `idem sync` pulls from its CRM: the sandbox's real address (here a free port), which
      // no CLI started elsewhere can derive.
      expect(service.output()).toContain(
        `idem beside it: DATABASE_URL=${embeddedUrl(service.databasePort!)} STRIPE_API_BASE=${service.sandboxUrl} IDEM_CRM_URL=${service.sandboxUrl}\n`,
      );
      // Stripe refuses a charge for a customer it does not hold: the customer exists first.
      const customer = await fetch(`${service.sandboxUrl}/_sandbox/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'cus_e2e' }),
      });
      expect(customer.status).toBe(201);
      const charged = await fetch(`${service.apiUrl}/v1/orders/${orderId}/charge?waitMs=10000`, {
        method: 'POST',
        headers: { authorization: 'Bearer dev-storefront', 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 4200, currency: 'EUR', customerId: 'cus_e2e' }),
      });
      expect(charged.status).toBe(200);
      expect(await charged.json()).toMatchObject({ orderId, status: 'paid', amount: 4200 });
      const provider = (await (await fetch(`${service.sandboxUrl}/_sandbox/charges?orderId=${orderId}`)).json()) as {
        data: Array<{ status: string }>;
      };
      expect(provider.data.map((intent) => intent.status)).toEqual(['succeeded']);

      // The sandbox was told where the api listens: its signed webhook arrives and is recorded.
      const pool = new Pool({ connectionString: embeddedUrl(service.databasePort!) });
      try {
        const deadline = Date.now() + 15_000;
        let delivered = 0;
        while (delivered === 0 && Date.now() < deadline) {
          const { rows } = await pool.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM payment_webhook_deliveries WHERE order_id = $1',
            [orderId],
          );
          delivered = rows[0].n;
          if (delivered === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(delivered).toBeGreaterThan(0);
      } finally {
        await pool.end();
      }
    } finally {
      code = await service.stop('SIGINT');
    }
    expect(code).toBe(0);
  });

  it('answers unknown routes with problem+json', async () => {
    const service = await startService({ IDEM_DATA_DIR: newDataDir('idem-e2e-404-') });
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
