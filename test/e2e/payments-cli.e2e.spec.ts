/**
 * `idem recover` and `idem retention archive` through the CLI entry (runCli), against a real
 * database and the sandbox provider.
 */
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import {
  ChargeOutcomeStillUnknown,
  chargeOrder,
  loadOrder,
  orderStream,
  type ChargeOutcome,
  type PaymentGateway,
  WebhookDeliveries,
  CHARGE_ORDER_TASK,
  chargeOrderJobKey,
} from '../../modules/payments';
import { READ_MODELS, REACTORS } from '../harness/projection-catalogue';
import { runCli } from '../../src/cli';
import type { CliContext } from '../../src/cli/cli-context';
import { installJobQueue } from '../../src/jobs/install-job-queue';
import { auth, startTestApp, type TestApp } from '../harness/test-app';

jest.setTimeout(120_000);

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('payments_cli');
  harness.sandbox.createCustomer({ id: 'c' });
  await installJobQueue(harness.runtime.pool);
});
afterAll(() => harness.close());

async function idem(...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const context: CliContext = {
    readModels: READ_MODELS,
    reactors: REACTORS,
    config: () => harness.runtime.config,
    runtime: async () => ({ pool: harness.runtime.pool, store: harness.runtime.eventStore, databaseUrl: harness.runtime.databaseUrl }),
    stdout,
    stderr,
    exitCode: 0,
  };
  const code = await runCli(args, context);
  return { code, out, err };
}

const requestCharge = (orderId: string) =>
  harness.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/charge`,
    headers: auth('storefront'),
    payload: { amount: 4200, currency: 'EUR', customerId: 'c' },
  });

describe('idem recover --order', () => {
  it('verifies an unknown outcome with the provider and records the charge', async () => {
    const orderId = `cli-${randomUUID()}`;
    await requestCharge(orderId);
    await fetch(`${harness.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'drop_after_commit', orderId, times: 2 }),
    });
    await expect(
      chargeOrder(
        {
          store: harness.runtime.eventStore,
          gateway: harness.gateway,
          workerId: 'w',
          outsidePayments: new WebhookDeliveries(harness.runtime.pool),
        },
        orderId,
      ),
    ).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
    const config = harness.runtime.config;
    (config.payments as { stripeApiBase?: string }).stripeApiBase = harness.sandbox.url;

    const result = await idem('recover', '--order', orderId);
    expect(result.code).toBe(0);
    expect(result.out).toContain(`${orderId}  unknown → paid`);
    expect(result.err).toContain('1 order looked at\n');
    expect((await loadOrder(harness.runtime.eventStore, orderId)).state).toMatchObject({ status: 'paid', recovered: true });
  });

  it('leaves an attempt started moments ago to its worker: nothing appended, nothing sent', async () => {
    const orderId = `cli-${randomUUID()}`;
    await requestCharge(orderId);
    (harness.runtime.config.payments as { stripeApiBase?: string }).stripeApiBase = harness.sandbox.url;
    // A worker whose create is still on its way: its gateway holds the call until the test answers it.
    let attemptReachedProvider!: () => void;
    const attemptInFlight = new Promise<void>((resolve) => (attemptReachedProvider = resolve));
    let answerAttempt!: (outcome: ChargeOutcome) => void;
    const holdingGateway = Object.create(harness.gateway) as PaymentGateway;
    holdingGateway.charge = () => {
      attemptReachedProvider();
      return new Promise((resolve) => (answerAttempt = resolve));
    };
    const worker = chargeOrder(
      {
        store: harness.runtime.eventStore,
        gateway: holdingGateway,
        workerId: 'held',
        outsidePayments: new WebhookDeliveries(harness.runtime.pool),
      },
      orderId,
    );
    await attemptInFlight;
    const history = await harness.runtime.eventStore.readStream(orderStream(orderId));

    const result = await idem('recover', '--order', orderId);
    expect(result.code).toBe(0);
    expect(result.out).toContain(`${orderId}  processing → processing  (an attempt is still in flight)`);
    expect(await harness.runtime.eventStore.readStream(orderStream(orderId))).toHaveLength(history.length);
    expect(harness.sandbox.requests({ orderId })).toEqual([]);

    answerAttempt({ kind: 'unknown', error: 'released by the test' });
    await expect(worker).rejects.toBeInstanceOf(ChargeOutcomeStillUnknown);
  });

  describe('when the order is still pending (no attempt was ever made)', () => {
    const pendingOrder = async () => {
      const orderId = `cli-${randomUUID()}`;
      await requestCharge(orderId);
      (harness.runtime.config.payments as { stripeApiBase?: string }).stripeApiBase = harness.sandbox.url;
      return orderId;
    };
    const queueJob = (orderId: string) =>
      harness.runtime.pool.query(`SELECT graphile_worker.add_job($1, json_build_object('orderId', $2::text), job_key := $3)`, [
        CHARGE_ORDER_TASK,
        orderId,
        chargeOrderJobKey(orderId),
      ]);

    it('charges it and says that no worker queued or ran its job, and to start one (no worker is running here)', async () => {
      const orderId = await pendingOrder();

      const result = await idem('recover', '--order', orderId);

      expect(result.code).toBe(0);
      expect(result.out).toContain(`${orderId}  pending → paid  (charged as a first attempt: no worker has queued or run its charge job`);
      expect(result.out).toContain('start one (npm run worker)');
      expect(result.out).not.toContain('gave up');
    });

    it('says that its job is queued and no worker took it', async () => {
      const orderId = await pendingOrder();
      await queueJob(orderId);

      const result = await idem('recover', '--order', orderId);

      expect(result.out).toContain('its charge job is queued and no worker has taken it; is a worker running? start one (npm run worker)');
    });

    it('says how often its job ran and its last error when it ran without an attempt', async () => {
      const orderId = await pendingOrder();
      await queueJob(orderId);
      await harness.runtime.pool.query(
        `UPDATE graphile_worker._private_jobs SET attempts = 2, last_error = 'card look-up got no answer' WHERE key = $1`,
        [chargeOrderJobKey(orderId)],
      );

      const result = await idem('recover', '--order', orderId);

      expect(result.out).toContain('its charge job ran 2 times without an attempt (last error: card look-up got no answer)');
    });
  });

  it('refuses --older-than beside --order (it chooses the sweep, not how one order is recovered)', async () => {
    const result = await idem('recover', '--order', 'x', '--older-than', '0s');
    expect(result.code).toBe(2);
    expect(result.err).toContain('cannot be used with option');
  });

  it('says there is no such order and exits 2, as `sync status` does for an unknown run', async () => {
    const orderId = `nope-${randomUUID()}`;
    const result = await idem('recover', '--order', orderId);
    expect(result).toEqual({ code: 2, out: '', err: `idem: no charge was ever requested for order ${orderId}\n` });
    expect((await loadOrder(harness.runtime.eventStore, orderId)).state.exists).toBe(false);
  });

  it('rejects a malformed duration with exit code 2', async () => {
    expect((await idem('recover', '--older-than', 'soon')).code).toBe(2);
  });
});

describe('idem retention archive', () => {
  it('archives with the default 30-day window', async () => {
    const result = await idem('retention', 'archive');
    expect(result.code).toBe(0);
    // Nothing in this fresh database is 30 days old: counted in the plural, not "row(s)".
    expect(result.out).toMatch(/^archived 0 job rows and 0 webhook dedupe rows older than /);
  });

  it('refuses a window shorter than the longest retry window', async () => {
    const result = await idem('retention', 'archive', '--older-than', '1d');
    expect(result.code).toBe(2);
    expect(result.err).toContain('longest retry window');
  });
});
