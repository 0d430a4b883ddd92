/**
 * A/B of per-request CPU between builds of the service, for tuning on a shared machine: wall-clock
 * rates move with other people's load, CPU µs per request much less, and interleaving the builds
 * (A, B, A, B, …) spreads what drift remains over both.
 *
 *   node -r ./bench/lib/register.js bench/charges/cpu-ab.ts <a/dist/src/main.js> <b/dist/src/main.js>
 *
 * A build may carry node flags after commas, to compare settings of one build:
 * `dist/src/main.js dist/src/main.js,--max-old-space-size=256`.
 *
 * Per build and repetition, on a fresh service (embedded defaults, worker in the api, sandbox at
 * 20 ms): the first request of BENCH_AB_ORDERS [1000] orders at concurrency 64, then until every
 * order is paid (= the whole pipeline per order: POST, reactor, job, Stripe SDK, sandbox, webhook,
 * projections); after a 2 s pause, BENCH_AB_IDLE_S [3] s with nothing to do (background polling); BENCH_AB_REPLAYS
 * [8000] duplicates of the settled orders (the replay path alone). BENCH_AB_REPEAT [2] repetitions.
 * Prints service and PostgreSQL CPU per unit, and the load average.
 */
import { join } from 'node:path';
import { loadavg, tmpdir } from 'node:os';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { numberFromEnv } from '../lib/env';
import { postmasterPid } from '../lib/proc';
import { createCustomers } from './customers';
import { runLoad } from './http-load';
import { postgresCpuSeconds, processCpuSeconds, startService, type ServiceProcess } from './service';

const AUTH = { authorization: 'Bearer dev-storefront' };
const orders = numberFromEnv('BENCH_AB_ORDERS', 1000, 1);
const replays = numberFromEnv('BENCH_AB_REPLAYS', 8000, 1);
const idleS = numberFromEnv('BENCH_AB_IDLE_S', 3, 0);
const repeat = numberFromEnv('BENCH_AB_REPEAT', 2, 1);

interface Cpu {
  service: number;
  postgres: number;
  at: number;
}

async function measureOnce(build: string): Promise<Record<string, string>> {
  const [mainJs, ...nodeFlags] = build.split(',');
  const dir = mkdtempSync(join(tmpdir(), 'idem-cpu-ab-'));
  chmodSync(dir, 0o755); // embedded PostgreSQL runs as `postgres` when we are root
  const service = await startService(
    mainJs,
    { PORT: '0', IDEM_SANDBOX_PORT: '0', IDEM_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' },
    { execArgv: nodeFlags },
  );
  try {
    const pm = postmasterPid(join(service.dataDir, 'pg'));
    const cpu = (): Cpu => ({
      service: processCpuSeconds(service.pid) ?? NaN,
      postgres: postgresCpuSeconds(pm) ?? NaN,
      at: performance.now(),
    });
    const per = (from: Cpu, to: Cpu, n: number, unit: number, digits = 0) =>
      `service ${(((to.service - from.service) / n) * unit).toFixed(digits)} + PostgreSQL ${(((to.postgres - from.postgres) / n) * unit).toFixed(digits)}`;
    await fetch(`${service.sandboxUrl}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'latency', ms: 20, probability: 1 }),
    });
    const run = Math.random().toString(36).slice(2, 8);
    const orderId = (i: number) => `ab-${run}-${i}`;
    const customers = Array.from({ length: 97 }, (_, i) => `cus_${i}`);
    await createCustomers(service.sandboxUrl, customers);
    const body = (i: number) => JSON.stringify({ amount: 1000 + (i % 50) * 100, currency: 'EUR', customerId: customers[i % 97] });
    const charge = (i: number) => ({ method: 'POST' as const, path: `/v1/orders/${orderId(i % orders)}/charge`, body: body(i % orders) });

    // Warm the JIT on a few orders of their own, then let the service go quiet.
    await runLoad({
      url: service.apiUrl,
      concurrency: 16,
      headers: AUTH,
      total: 400,
      request: (i) =>
        i < 400 ? { method: 'POST' as const, path: `/v1/orders/warm-${run}-${i % 100}/charge`, body: body(i % 100) } : undefined,
    });
    await waitPaid(service, (i) => `warm-${run}-${i}`, 100);

    const start = cpu();
    const first = await runLoad({
      url: service.apiUrl,
      concurrency: 64,
      headers: AUTH,
      total: orders,
      request: (i) => (i < orders ? charge(i) : undefined),
    });
    const afterFirst = cpu();
    await waitPaid(service, orderId, orders);
    const paid = cpu();
    // The projections may still be catching up on the last outcomes: let them finish first.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const quiet = cpu();
    await new Promise((resolve) => setTimeout(resolve, idleS * 1000));
    const idled = cpu();
    const dup = await runLoad({
      url: service.apiUrl,
      concurrency: 64,
      headers: AUTH,
      total: replays,
      request: (i) => (i < replays ? charge(i) : undefined),
    });
    const replayed = cpu();
    const idleCores = (idled.service - quiet.service + idled.postgres - quiet.postgres) / ((idled.at - quiet.at) / 1000);
    return {
      first_per_s: `${Math.round(orders / (first.elapsedMs / 1000))} (${per(start, afterFirst, orders, 1e6)} µs per first request, worker alongside)`,
      pipeline_per_order: `${per(start, paid, orders, 1e3, 2)} ms (paid after ${((paid.at - start.at) / 1000).toFixed(1)} s)`,
      idle_cores: idleCores.toFixed(3),
      replays_per_s: `${Math.round(replays / (dup.elapsedMs / 1000))} (${per(idled, replayed, replays, 1e6)} µs per replay; ${dup.replayed}/${replays} replayed)`,
      load1: loadavg()[0].toFixed(2),
    };
  } finally {
    await service.stop(20_000);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Polls the orders (newest first) until each says paid. */
async function waitPaid(service: ServiceProcess, orderId: (i: number) => string, count: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (let i = count - 1; i >= 0;) {
    const answer = await fetch(`${service.apiUrl}/v1/orders/${orderId(i)}?minRevision=2`, { headers: AUTH });
    if (answer.ok && ((await answer.json()) as { status: string }).status === 'paid') i--;
    else if (Date.now() > deadline) throw new Error(`order ${orderId(i)} not paid within 180 s`);
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main(): Promise<void> {
  const mains = process.argv.slice(2);
  if (!mains.length) throw new Error('usage: cpu-ab.ts <main.js> [<main.js> …]');
  for (let r = 1; r <= repeat; r++) {
    for (const build of mains) {
      const result = await measureOnce(build);
      process.stdout.write(`${JSON.stringify({ build, repetition: r, ...result })}\n`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
