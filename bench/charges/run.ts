/**
 * `npm run bench:charges` — POST /v1/orders/{id}/charge over HTTP against the whole service on embedded
 * defaults (PostgreSQL, sandbox provider, api and worker in one process, as `npm start` runs them), the
 * sandbox answering every confirmation after 20 ms; and, in the same run, a bare NestJS route on the
 * same platform (Fastify adapter) as the framework ceiling (issue 5, "Benchmark").
 *
 * Each round: 2,000 new orders, first requests at concurrency 64 (phase 1: first_charges_per_s, p99),
 * then the 4 further copies of every order, 8,000 requests at concurrency 64 (phase 2: duplicate
 * replays/s, p99), then wait until every order is paid and count what really happened: succeeded
 * intents at the sandbox per order (provider_charges) and orders whose GET says `paid` (orders_paid);
 * then (diagnostic, phase 3) the same duplicates again against the settled orders, what a replay
 * costs without the worker running beside it. Then the hello ceiling for BENCH_HELLO_S seconds.
 * A warm-up round (not reported) comes first; rounds are repeated and medians reported with min/max. The sandbox state is reset between rounds (its
 * in-memory intents and request log are a test fixture living in the service's process).
 *
 * The service and the hello app each run in their own child process; the load generator
 * (http-load.ts) runs in this one. CPU use of each process, of PostgreSQL and of everything else on
 * the machine (other people's work) is reported per phase, with the load average.
 *
 * Environment (defaults in brackets): BENCH_ORDERS [2000], BENCH_COPIES [5] requests per order
 * including the first, BENCH_CONCURRENCY [64], BENCH_PROVIDER_LATENCY_MS [20], BENCH_WORKER_CONCURRENCY
 * [the service's default, 8], BENCH_ROUNDS [3], BENCH_WARMUP_ORDERS [500] (0: none), BENCH_HELLO_S [10], BENCH_SETTLE_TIMEOUT_S
 * [180], BENCH_BUILD [1] (0: run dist/ as it is instead of compiling the current source),
 * BENCH_RESET_SANDBOX [1], BENCH_TRACE [0] (1: count the service's SQL statements, pool waits and
 * event-loop use per phase; costs some throughput), BENCH_PROFILE [0] (1: also CPU-profile the service
 * during the phases of the last round; implies BENCH_TRACE), BENCH_KEEP [0] (1: keep the temp dir),
 * BENCH_SERVICE_NODE_FLAGS [] (node flags for the service after those of npm start, which it always gets; e.g. "--max-old-space-size=128"),
 * BENCH_DB_POOL_SIZE [the service's default] (IDEM_DB_POOL_SIZE of the service),
 * BENCH_WORKER_IN_API [1] (0: the service runs without its in-process worker — diagnostic, nothing is
 * charged), BENCH_SETTLED_REPLAYS [1] (0: skip the diagnostic phase 3).
 *
 * Progress goes to stderr; stdout gets a human summary and, as its last line, one JSON object.
 *
 * This file starts and stops what is measured. The measurement: charge-round.ts (a round), phase.ts
 * (one measured phase), hello.ts (the ceiling), cpu-split.ts (CPU readings), tracer.ts (BENCH_TRACE);
 * the report from the figures: report.ts; settings and targets: config.ts.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { progress } from '../lib/log';
import { describeMachine, machineInfo, postgresInfo } from '../lib/machine';
import { postmasterPid } from '../lib/proc';
import { formatRate } from '../lib/stats';
import { armLatency, chargeRound, type RoundResult } from './charge-round';
import { configFromEnv } from './config';
import { formatSplit } from './cpu-split';
import { helloRound, startHello, type Hello, type HelloResult } from './hello';
import type { Context } from './phase';
import { report } from './report';
import { REPO, buildService, memoryMb, startService } from './service';
import { Tracer } from './tracer';

async function main(): Promise<void> {
  const config = configFromEnv();
  progress(`config ${JSON.stringify(config)}`);
  let mainJs = resolve(REPO, 'dist/src/main.js');
  if (config.build) {
    const outDir = resolve(REPO, 'node_modules/.cache/idem-bench-charges/dist');
    progress(`compiling the current source into ${outDir} (tsc -p tsconfig.build.json)`);
    mainJs = await buildService(outDir, progress);
  } else if (!existsSync(mainJs)) {
    throw new Error(`${mainJs} does not exist: run npm run build, or leave BENCH_BUILD at 1`);
  }
  const tempDir = mkdtempSync(join(tmpdir(), 'idem-bench-charges-'));
  // PostgreSQL runs as the `postgres` user when we are root: it must be able to enter the directory.
  chmodSync(tempDir, 0o755);

  const traceFile = join(tempDir, 'trace.json');
  progress(`starting the service: node ${mainJs} (embedded PostgreSQL in ${tempDir}/data)`);
  const service = await startService(
    mainJs,
    {
      PORT: '0',
      IDEM_SANDBOX_PORT: '0',
      IDEM_DATA_DIR: join(tempDir, 'data'),
      IDEM_WORKER_CONCURRENCY: String(config.workerConcurrency),
      ...(config.workerInApi ? {} : { IDEM_WORKER_IN_API: 'false' }),
      ...(config.dbPoolSize ? { IDEM_DB_POOL_SIZE: String(config.dbPoolSize) } : {}),
      LOG_LEVEL: 'warn',
      ...(config.trace ? { BENCH_TRACE_FILE: traceFile } : {}),
    },
    { execArgv: [...config.serviceNodeFlags, ...(config.trace ? ['--expose-gc', '-r', resolve(__dirname, 'trace-preload.js')] : [])] },
  ).catch((error: unknown) => {
    if (!config.keep) rmSync(tempDir, { recursive: true, force: true });
    throw error;
  });
  let hello: Hello | undefined;
  const ctx: Context = {
    config,
    service,
    pids: { service: service.pid, postmaster: postmasterPid(join(service.dataDir, 'pg')) },
    tracer: config.trace ? new Tracer(traceFile) : undefined,
    tempDir,
    rssMaxMb: 0,
  };
  const sampler = setInterval(() => {
    const memory = memoryMb(service.pid);
    if (memory) ctx.rssMaxMb = Math.max(ctx.rssMaxMb, memory.rss);
  }, 100);
  let stopped = false;
  const cleanup = async () => {
    if (stopped) return;
    stopped = true;
    clearInterval(sampler);
    await hello?.stop().catch(() => undefined);
    const code = await service.stop().catch(() => null);
    if (code !== 0) progress(`the service exited with ${code}; its last output:\n${service.output().slice(-3000)}`);
    if (config.keep) progress(`kept ${tempDir}`);
    else rmSync(tempDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

  try {
    progress(
      `service pid ${service.pid}: api ${service.apiUrl}, sandbox ${service.sandboxUrl}, PostgreSQL postmaster pid ${ctx.pids.postmaster ?? '?'}`,
    );
    const machine = machineInfo();
    const postgres = await postgresInfo(service.databaseUrl);
    progress(describeMachine(machine, postgres).replace('\n', '; '));
    await armLatency(ctx);
    const startedMemory = memoryMb(service.pid);
    progress(`service RSS after start: ${startedMemory?.rss.toFixed(0)} MiB`);

    hello = await startHello();
    ctx.pids.hello = hello.child.pid;
    progress(`hello app pid ${hello.child.pid} at ${hello.url}`);

    if (config.warmupOrders > 0) {
      progress(`warm-up: ${config.warmupOrders} orders × ${config.copies} (not reported)`);
      await chargeRound(ctx, 'warmup', config.warmupOrders, { profile: false });
      await helloRound(hello, ctx, 2);
    }

    const rounds: RoundResult[] = [];
    const hellos: HelloResult[] = [];
    for (let r = 1; r <= config.rounds; r++) {
      progress(`round ${r}/${config.rounds}: ${config.orders} orders × ${config.copies} requests at concurrency ${config.concurrency}`);
      rounds.push(await chargeRound(ctx, `r${r}`, config.orders, { profile: config.profile && r === config.rounds }));
      progress(`round ${r}/${config.rounds}: hello ceiling for ${config.helloS} s`);
      const h = await helloRound(hello, ctx, config.helloS);
      hellos.push(h);
      progress(
        `  hello: ${formatRate(h.rps)} requests/s, p50 ${h.p50Ms.toFixed(1)} ms, p99 ${h.p99Ms.toFixed(1)} ms; ${formatSplit(h.cpu)}`,
      );
    }

    if (ctx.tracer) {
      const collected = (await ctx.tracer.command('gc')).memory;
      const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
      progress(
        `after a full GC (traced run): RSS ${mib(collected.rss)} MiB, V8 heap ${mib(collected.heapUsed)} used of ${mib(collected.heapTotal)} MiB, external ${mib(collected.external)} MiB`,
      );
    }
    const memory = memoryMb(service.pid);
    const peakRssMb = Math.max(memory?.hwm ?? 0, ctx.rssMaxMb);
    const endLoad = loadavg();
    report(config, machine, postgres, rounds, hellos, peakRssMb, startedMemory?.rss, endLoad);
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`bench:charges failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
