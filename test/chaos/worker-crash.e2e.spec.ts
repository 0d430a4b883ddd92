/**
 * The worker process is SIGKILLed after the provider committed the charge and before the outcome
 * was recorded (the sandbox holds the answer). After a restart, recovery finds the order silent in
 * `processing`, asks the provider, and records the charge as recovered: one charge, order paid.
 */
import { randomUUID } from 'node:crypto';
import { createSandbox, type Sandbox, isSucceededCharge } from '../../modules/sandbox';
import { loadOrder } from '../../modules/payments';
import { auth, startTestApp, type TestApp } from '../harness/test-app';
import { waitUntil } from '../harness/wait-until';
import { startWorkerProcess, type WorkerProcess } from '../harness/worker-process';

jest.setTimeout(180_000);

let api: TestApp;
let sandbox: Sandbox;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  api = await startTestApp('worker_crash');
  sandbox = await createSandbox();
  sandbox.createCustomer({ id: 'c' });
});
afterAll(async () => {
  await worker?.kill();
  await sandbox.close();
  await api.close();
});

const workerEnv = () => ({
  DATABASE_URL: api.runtime.databaseUrl,
  IDEM_SANDBOX: 'false',
  STRIPE_API_BASE: sandbox.url,
  STRIPE_SECRET_KEY: 'sk_test_crash',
  IDEM_RECOVERY_INTERVAL: '1s',
  IDEM_RECOVERY_THRESHOLD: '2s',
});

describe('a worker killed between the provider charge and the outcome append', () => {
  it('ends with one charge and the order paid as recovered after restart and recovery', async () => {
    const orderId = `crash-${randomUUID()}`;
    const held = new Promise<void>((resolve) => sandbox.signals.once('response-held', () => resolve()));
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'hold_after_commit', orderId }),
    });
    worker = await startWorkerProcess(workerEnv());

    const accepted = await api.app.inject({
      method: 'POST',
      url: `/v1/orders/${orderId}/charge`,
      headers: auth('storefront'),
      payload: { amount: 5300, currency: 'EUR', customerId: 'c' },
    });
    expect(accepted.statusCode).toBe(202);
    await held;
    expect(sandbox.charges({ orderId }).filter(isSucceededCharge)).toHaveLength(1);
    await worker.kill('SIGKILL');
    await fetch(`${sandbox.url}/_sandbox/release`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await loadOrder(api.runtime.eventStore, orderId)).state.status).toBe('processing');

    worker = await startWorkerProcess(workerEnv());
    const { state } = await waitUntil(
      () => loadOrder(api.runtime.eventStore, orderId),
      ({ state }) => state.status !== 'processing',
      60_000,
    );
    expect(state).toMatchObject({ status: 'paid', recovered: true });
    const charges = sandbox.charges({ orderId }).filter(isSucceededCharge);
    expect(charges.map((intent) => intent.id)).toEqual([state.paymentIntentId]);
    // Search still lags (Stripe: "usually within a minute"): the recovery learned it by replaying the key.
    expect(sandbox.requests({ orderId }).filter((r) => r.path.includes('search'))).toEqual([]);
    const types = (await api.runtime.eventStore.readStream(`order-${orderId}`)).map((e) => e.type);
    expect(types.filter((t) => t === 'ChargeSucceeded')).toHaveLength(1);
    // The sweep writes its audit line just after the outcome it appended: wait for the line itself.
    const auditLines = async () =>
      (await api.runtime.pool.query(`SELECT old_status, new_status, trigger FROM payment_recovery_log WHERE order_id = $1`, [orderId]))
        .rows;
    const rows = await waitUntil(auditLines, (lines) => lines.length > 0, 10_000);
    expect(rows).toContainEqual({ old_status: 'processing', new_status: 'paid', trigger: 'schedule' });
  });
});
