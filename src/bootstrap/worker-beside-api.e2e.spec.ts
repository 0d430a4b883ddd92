/**
 * A worker process started beside an api that runs without one (IDEM_WORKER_IN_API=false), in
 * development, given only the database: it charges the api's sandbox, where the customers are, or it
 * refuses to start. It used to start a sandbox of its own in memory, and every charge went to review
 * with "No such customer".
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { findFreePort } from '../database/free-port';
import { createTestDatabase } from '../../test/harness/test-database';
import { startService, type ServiceProcess } from '../../test/harness/service-process';
import { startWorkerProcess, type WorkerProcess } from '../../test/harness/worker-process';
import { waitUntil } from '../../test/harness/wait-until';

jest.setTimeout(120_000);

const WORKER = join(__dirname, '..', '..', 'dist', 'src', 'worker.js');

describe('a worker process in development without STRIPE_API_BASE', () => {
  let api: ServiceProcess | undefined;
  let worker: WorkerProcess | undefined;
  afterEach(async () => {
    await worker?.kill('SIGTERM');
    await api?.stop('SIGTERM');
    worker = api = undefined;
  });

  it("charges the api's sandbox found at IDEM_SANDBOX_PORT, and says so", async () => {
    const databaseUrl = await createTestDatabase('worker_beside_api');
    api = await startService({ DATABASE_URL: databaseUrl, IDEM_WORKER_IN_API: 'false', IDEM_SANDBOX_PORT: '0' });
    const sandboxUrl = api.sandboxUrl!;
    const sandboxPort = new URL(sandboxUrl).port;
    const customer = await fetch(`${sandboxUrl}/_sandbox/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'cus_beside_api' }),
    });
    expect(customer.status).toBe(201);

    const env = { ...process.env } as Record<string, string>;
    delete env.STRIPE_API_BASE;
    delete env.IDEM_SANDBOX;
    worker = await startWorkerProcess({ ...env, DATABASE_URL: databaseUrl, IDEM_SANDBOX_PORT: sandboxPort });
    expect(worker.output()).toContain(`provider: the api's sandbox at http://127.0.0.1:${sandboxPort}`);

    const charged = await fetch(`${api.apiUrl}/v1/orders/beside-api-1/charge`, {
      method: 'POST',
      headers: { authorization: 'Bearer dev-storefront', 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1250, currency: 'EUR', customerId: 'cus_beside_api' }),
    });
    expect(charged.status).toBe(202);
    const order = await waitUntil(
      async () =>
        (await (await fetch(`${api!.apiUrl}/v1/orders/beside-api-1`, { headers: { authorization: 'Bearer dev-support' } })).json()) as {
          status?: string;
          lastError?: string;
        },
      (state) => state.status !== 'pending' && state.status !== 'processing',
      30_000,
    );
    expect(order).toMatchObject({ status: 'paid' });
    const charges = (await (await fetch(`${sandboxUrl}/_sandbox/charges?orderId=beside-api-1`)).json()) as { data: { status: string }[] };
    expect(charges.data.map((intent) => intent.status)).toEqual(['succeeded']);
  });

  it('refuses to start with one line saying what to set when no sandbox answers there', async () => {
    const nothingThere = String(await findFreePort());
    const env = { ...process.env } as Record<string, string>;
    delete env.STRIPE_API_BASE;
    delete env.IDEM_SANDBOX;
    const child = spawn(process.execPath, [WORKER], {
      env: { ...env, DATABASE_URL: await createTestDatabase('worker_no_sandbox'), IDEM_SANDBOX_PORT: nothingThere, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A worker that starts anyway (it used to, on a sandbox of its own) is stopped, and fails the test.
    const runningOn = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(runningOn);
    expect(code).toBe(1);
    expect(output.trim()).toBe(
      `Idem worker failed to start: no sandbox provider answers at http://127.0.0.1:${nothingThere} (IDEM_SANDBOX_PORT), ` +
        "and a worker does not start one of its own: start it with the `idem beside it:` line of the api's banner " +
        "(it sets STRIPE_API_BASE to the api's sandbox), or set STRIPE_API_BASE to the provider it charges",
    );
  });
});
