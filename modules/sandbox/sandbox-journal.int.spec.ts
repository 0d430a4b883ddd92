import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { createSandbox, type Sandbox } from './index';
import { JOURNAL_FILE } from './sandbox-journal';
import { chargeParams, SHOPPER, stripeFor } from './sandbox.fixture';

const ROOT = join(__dirname, '..', '..');

/** The standalone sandbox (main.ts) in a process of its own, on a free port, keeping its state in `dir`. */
async function startSandboxProcess(dir: string): Promise<{ child: ChildProcess; url: string; port: number }> {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'bench', 'lib', 'register.js'), join(__dirname, 'main.ts')], {
    env: { ...process.env, IDEM_SANDBOX_PORT: '0', IDEM_SANDBOX_DATA_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (listening) resolve(listening[1]);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${output}`)));
  });
  return { child, url, port: Number(new URL(url).port) };
}

const stripeAt = (port: number) => new Stripe('sk_test_x', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });

async function addShopper(url: string): Promise<void> {
  const response = await fetch(`${url}/_sandbox/customers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: SHOPPER }),
  });
  expect(response.status).toBeLessThan(300);
}

describe('the sandbox provider kept in a state directory', () => {
  let dir: string;
  const open: Sandbox[] = [];
  const started = async () => {
    const sandbox = await createSandbox({ stateDir: dir });
    open.push(sandbox);
    return sandbox;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'idem-sandbox-state-'));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('still holds, after it was SIGKILLed and started again, every charge, customer and answered key it answered', async () => {
    const first = await startSandboxProcess(dir);
    await addShopper(first.url);
    const charged = await stripeAt(first.port).paymentIntents.create(chargeParams('481'), { idempotencyKey: 'order-481-r1' });
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');

    const second = await startSandboxProcess(dir);
    try {
      const stripe = stripeAt(second.port);
      // Retrieve by id: the provider still knows the charge; the control API counts it for invariant 1.
      expect((await stripe.paymentIntents.retrieve(charged.id)).status).toBe('succeeded');
      const charges = (await (await fetch(`${second.url}/_sandbox/charges?orderId=481`)).json()) as { data: Array<{ id: string }> };
      expect(charges.data.map((intent) => intent.id)).toEqual([charged.id]);
      // The same key with the same parameters is answered as before, not charged again.
      const retried = await stripe.paymentIntents.create(chargeParams('481'), { idempotencyKey: 'order-481-r1' });
      expect(retried.id).toBe(charged.id);
      expect(retried.lastResponse.headers['idempotent-replayed']).toBe('true');
      // The customer is still there: a new charge for it is not refused as for an unknown customer.
      expect((await stripe.paymentIntents.create(chargeParams('482'))).status).toBe('succeeded');
    } finally {
      second.child.kill('SIGKILL');
      await once(second.child, 'exit');
    }
  });

  it('keeps the latest version of a settled charge and the customer changes made through the API', async () => {
    const sandbox = await started();
    const stripe = stripeFor(sandbox);
    const customer = await stripe.customers.create({ email: 'a@example.com' });
    await stripe.customers.update(customer.id, { name: 'Ada', metadata: { tier: 'gold' } });
    sandbox.createCustomer({ id: SHOPPER });
    const delayed = await stripe.paymentIntents.create(chargeParams('483', { payment_method: 'pm_successDelayed_de' }));
    expect(delayed.status).toBe('processing');
    sandbox.settle(delayed.id);
    await sandbox.close();
    open.length = 0;

    const again = await started();
    expect(await stripeFor(again).customers.retrieve(customer.id)).toMatchObject({
      id: customer.id,
      email: 'a@example.com',
      name: 'Ada',
      metadata: { tier: 'gold' },
    });
    expect(again.charges({ orderId: '483' })).toMatchObject([{ id: delayed.id, status: 'succeeded', amount_received: 4200 }]);
  });

  it('forgets everything on POST /_sandbox/reset, after a restart too', async () => {
    const sandbox = await started();
    sandbox.createCustomer({ id: SHOPPER });
    await stripeFor(sandbox).paymentIntents.create(chargeParams('484'));
    expect((await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' })).status).toBeLessThan(300);
    await sandbox.close();
    open.length = 0;

    const again = await started();
    expect(again.charges()).toEqual([]);
  });

  it('keeps what it answered after POST /_sandbox/reset, after a restart', async () => {
    const sandbox = await started();
    sandbox.createCustomer({ id: SHOPPER });
    await stripeFor(sandbox).paymentIntents.create(chargeParams('486'));
    expect((await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' })).status).toBeLessThan(300);
    sandbox.createCustomer({ id: SHOPPER });
    const after = await stripeFor(sandbox).paymentIntents.create(chargeParams('487'));
    await sandbox.close();
    open.length = 0;

    const again = await started();
    expect(again.charges().map((intent) => intent.id)).toEqual([after.id]);
  });

  it('finishes a line the disk took only part of, so the changes after it are still replayed', async () => {
    const sandbox = await started();
    const writeSync = fs.writeSync;
    // A full disk: the next write takes ten bytes of the line and says so, as write(2) may.
    jest
      .spyOn(fs, 'writeSync')
      .mockImplementationOnce(((fd: number, data: string | Buffer, offset?: number, length?: number, position?: number) =>
        typeof data === 'string'
          ? writeSync(fd, data.slice(0, 10))
          : writeSync(fd, data, offset, Math.min(length ?? data.length, 10), position)) as typeof fs.writeSync);
    sandbox.createCustomer({ id: SHOPPER });
    const charged = await stripeFor(sandbox).paymentIntents.create(chargeParams('488'));
    await sandbox.close();
    open.length = 0;

    const again = await started();
    expect(again.charges().map((intent) => intent.id)).toEqual([charged.id]);
  });

  it('replays the whole lines of a journal whose last write was cut short, and drops the torn one', async () => {
    const sandbox = await started();
    sandbox.createCustomer({ id: SHOPPER });
    const kept = await stripeFor(sandbox).paymentIntents.create(chargeParams('485'));
    await sandbox.close();
    open.length = 0;
    appendFileSync(join(dir, JOURNAL_FILE), '{"kind":"intent","at":1,"intent":{"id":"pi_torn"');

    const again = await started();
    expect(again.charges().map((intent) => intent.id)).toEqual([kept.id]);
    expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8')).not.toContain('pi_torn');
  });

  it('refuses a second sandbox on a state directory in use, naming the process that holds it', async () => {
    await started();
    const second = createSandbox({ stateDir: dir });
    void second.then(
      (sandbox) => sandbox.close(),
      () => undefined,
    );
    await expect(second).rejects.toThrow(`in use by process ${process.pid}`);
  });
});
