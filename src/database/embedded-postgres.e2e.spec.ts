/**
 * Ctrl+C in the terminal running `npm start` sends SIGINT to the whole foreground process group, not
 * only to node. The embedded PostgreSQL used to be in that group: it shut down at once, while the
 * graceful stop was still finishing the charge jobs in flight, and they failed to record their outcome
 * ("the database system is shutting down", graphile-worker's "committing seppuku"). Here the compiled
 * service leads a process group of its own, as a terminal's foreground job does, and the group gets
 * the SIGINT while a charge waits on a slow provider.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../../test/harness/wait-until';

const MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');

jest.setTimeout(120_000);

describe('the embedded service stopped by Ctrl+C in its terminal', () => {
  it('finishes the charge in flight on a running database, then stops PostgreSQL last', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'idem-e2e-ctrl-c-'));
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, PORT: '0', IDEM_SANDBOX_PORT: '0', IDEM_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      // A service that dies before its banner (no dist/ build, a bad setting) fails the test at once with its output.
      const diedEarly = exited.then((code) => Promise.reject(new Error(`the service exited (${code}) before its banner:\n${output}`)));
      await Promise.race([
        waitUntil(
          async () => output,
          (text) => /api\s+http:\/\/\S+/.test(text) && /sandbox at http:\/\/\S+/.test(text),
          60_000,
        ),
        diedEarly,
      ]);
      diedEarly.catch(() => undefined);
      const api = /api\s+(http:\/\/\S+)/.exec(output)![1];
      const sandbox = /sandbox at (http:\/\/\S+)/.exec(output)![1];
      const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      expect((await post(`${sandbox}/_sandbox/customers`, { id: 'cus_ctrl_c' })).status).toBe(201);
      expect((await post(`${sandbox}/_sandbox/faults`, { kind: 'latency', ms: 3000, probability: 1 })).status).toBe(201);
      const charged = await post(
        `${api}/v1/orders/ctrl-c-1/charge`,
        { amount: 1250, currency: 'EUR', customerId: 'cus_ctrl_c' },
        { authorization: 'Bearer dev-storefront' },
      );
      expect(charged.status).toBe(202);
      // Its attempt is recorded (revision 1) before the provider is called, which answers in 3 s: the job is in flight.
      await waitUntil(
        async () => {
          const order = await fetch(`${api}/v1/orders/ctrl-c-1?minRevision=1`, { headers: { authorization: 'Bearer dev-support' } });
          return ((await order.json()) as { status?: string }).status;
        },
        (status) => status === 'processing',
        30_000,
      );

      process.kill(-child.pid!, 'SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(output).toMatch(/Completed task \d+ \(charge-order/);
    // A failed attempt logs as `Failed task …`, or as `… attempt n of m failed, retried …` when expected (src/jobs/job-log.ts).
    expect(output).not.toMatch(/shutting down|committing seppuku|Failed task|attempt \d+ of \d+ failed/);
    expect(output).toMatch(/stopped: worker[^\n]*\n(.*\n)*stopped: database/);
  });
});
