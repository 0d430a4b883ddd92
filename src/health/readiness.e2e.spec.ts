import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { startBackground, type Background } from '../bootstrap/background';
import { HELD_BACK_NOTICE_SECONDS } from '../event-store/held-back';
import { waitUntilHeldBackFor, whileTransactionHeldOpen } from '../../test/harness/held-transaction';
import { waitUntilSettled } from '../../test/harness/settled-history';
import { auth, startTestApp, type TestApp } from '../../test/harness/test-app';
import { waitUntil } from '../../test/harness/wait-until';

type Readiness = {
  status: 'up' | 'down';
  checks: Record<string, { status: 'up' | 'down'; error?: string }>;
  heldBack?: { since: string; seconds: number; message: string };
};

const readiness = async (harness: TestApp) => {
  const response = await harness.app.inject({ method: 'GET', url: '/health/ready' });
  return { statusCode: response.statusCode, body: response.json<Readiness>() };
};

/** A new order's charge, which appends its ChargeRequested. */
const requestCharge = (harness: TestApp) =>
  harness.app.inject({
    method: 'POST',
    url: `/v1/orders/ord-${randomUUID()}/charge`,
    headers: auth('storefront'),
    payload: { amount: 1250, currency: 'EUR', customerId: 'cus_42' },
  });

const allUp = { database: { status: 'up' }, eventStore: { status: 'up' }, jobQueue: { status: 'up' }, projectionLag: { status: 'up' } };

describe('GET /health/ready', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await startTestApp('readiness');
  });
  afterAll(() => harness.close());

  it('is 200 when the database, the event store, the job queue and the projections are fine', async () => {
    expect(await readiness(harness)).toEqual({ statusCode: 200, body: { status: 'up', checks: allUp } });
  });

  it('is 503 when the event store does not answer', async () => {
    const ping = jest.spyOn(harness.runtime.eventStore, 'ping').mockRejectedValue(new Error('event store unreachable'));
    try {
      const { statusCode, body } = await readiness(harness);
      expect(statusCode).toBe(503);
      expect(body.checks.eventStore).toEqual({ status: 'down', error: 'event store unreachable' });
    } finally {
      ping.mockRestore();
    }
  });

  it('is 503 when the job queue cannot be read', async () => {
    await harness.runtime.pool.query('ALTER SCHEMA graphile_worker RENAME TO graphile_worker_hidden');
    try {
      const { statusCode, body } = await readiness(harness);
      expect(statusCode).toBe(503);
      expect(body.checks.jobQueue.status).toBe('down');
      expect(body.checks.database.status).toBe('up');
    } finally {
      await harness.runtime.pool.query('ALTER SCHEMA graphile_worker_hidden RENAME TO graphile_worker');
    }
    expect((await readiness(harness)).statusCode).toBe(200);
  });

  it('asks the job queue whether its tables answer, without counting its jobs', async () => {
    const query = jest.spyOn(harness.runtime.pool, 'query');
    try {
      expect((await readiness(harness)).statusCode).toBe(200);
      const statements = query.mock.calls.map((call) => JSON.stringify((call as unknown[])[0]));
      const jobQueue = statements.filter((statement) => statement.includes('graphile_worker.'));
      expect(jobQueue).toEqual([expect.stringContaining('LIMIT 1')]);
      expect(jobQueue[0]).not.toMatch(/count\(/i);
    } finally {
      query.mockRestore();
    }
  });

  it('is 503 when the database refuses connections', async () => {
    const database = new URL(harness.runtime.databaseUrl).pathname.slice(1);
    const admin = new Client({ connectionString: process.env.IDEM_TEST_ADMIN_URL });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
        database,
      ]);
      const { statusCode, body } = await readiness(harness);
      expect(statusCode).toBe(503);
      expect(body.checks.database.status).toBe('down');
    } finally {
      await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await waitUntil(
      () => readiness(harness),
      (r) => r.statusCode === 200,
      10_000,
    );
  });
});

describe('GET /health/ready with IDEM_READY_MAX_PROJECTION_LAG', () => {
  let harness: TestApp;
  let background: Background | undefined;
  beforeAll(async () => {
    harness = await startTestApp('readiness_lag', { IDEM_READY_MAX_PROJECTION_LAG: '1ms' });
  });
  afterAll(async () => {
    await background?.stop();
    await harness.close();
  });

  it('is 503 while a live projection is behind the log by more than the limit, and 200 once it caught up', async () => {
    expect((await readiness(harness)).statusCode).toBe(200);
    expect((await requestCharge(harness)).statusCode).toBe(202);
    // No worker runs in this process yet: nothing processes the ChargeRequested.
    const behind = await waitUntil(
      () => readiness(harness),
      (r) => r.statusCode === 503,
      10_000,
    );
    expect(behind.body.checks.projectionLag).toEqual({
      status: 'down',
      error: expect.stringMatching(/^behind the log by more than 0\.001 s: .*orders v1/),
    });
    expect(behind.body.checks.database.status).toBe('up');

    background = await startBackground(harness.runtime, harness.features, { workerId: 'test-readiness-lag' });
    await waitUntil(
      () => readiness(harness),
      (r) => r.statusCode === 200,
      30_000,
    );
  });
});

describe('GET /health/ready while a transaction left open holds written events back', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await startTestApp('readiness_held_back');
  });
  afterAll(() => harness.close());

  it('stays 200 and names the hold in its body once it lasts, and says nothing of it once the transaction ended', async () => {
    // Every event committed after the open transaction waits for it, the charge's ChargeRequested too.
    await whileTransactionHeldOpen(harness.runtime.pool, async () => {
      expect((await requestCharge(harness)).statusCode).toBe(202);
      await waitUntilHeldBackFor(harness.runtime.eventStore, HELD_BACK_NOTICE_SECONDS * 1000);
      const { statusCode, body } = await readiness(harness);
      expect(statusCode).toBe(200);
      expect(body.status).toBe('up');
      expect(body.checks).toEqual(allUp);
      expect(body.heldBack).toEqual({
        since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        seconds: expect.any(Number),
        message: expect.stringMatching(/^events written \d+\.\d s ago wait for a transaction still in flight in the PostgreSQL cluster/),
      });
      expect(body.heldBack!.seconds).toBeGreaterThanOrEqual(HELD_BACK_NOTICE_SECONDS);
    });
    await waitUntilSettled(harness.runtime.pool);
    const after = await readiness(harness);
    expect(after.statusCode).toBe(200);
    expect(after.body.heldBack).toBeUndefined();
  });
});
