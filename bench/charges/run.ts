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
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { progress } from '../lib/log';
import { describeMachine, machineInfo, postgresInfo, type MachineInfo, type PostgresInfo } from '../lib/machine';
import { postmasterPid } from '../lib/proc';
import { median, percentile, round, spread, formatRate } from '../lib/stats';
import { runLoad, type LoadResult } from './http-load';
import { summarizeProfile, type ProfileSummary } from './profile-summary';
import { REPO, buildService, startScriptNodeFlags, cpuPressureUs, machineCpuSeconds, memoryMb, postgresCpuSeconds, processCpuSeconds, startService, type ServiceProcess } from './service';
import { numberFromEnv } from '../lib/env';
import { loadConfig } from '../../src/config/config';

const TARGETS = { first_charges_per_s: 1500, duplicate_replays_per_s: 4000, p99_duplicate_ms: 50, peak_rss_mb: 300 };
const AUTH = { authorization: 'Bearer dev-storefront' };

interface Config {
  orders: number;
  copies: number;
  concurrency: number;
  latencyMs: number;
  workerConcurrency: number;
  rounds: number;
  warmupOrders: number;
  helloS: number;
  settleTimeoutS: number;
  build: boolean;
  resetSandbox: boolean;
  workerInApi: boolean;
  settledReplays: boolean;
  trace: boolean;
  profile: boolean;
  keep: boolean;
  /** IDEM_DB_POOL_SIZE for the service; 0: the service's default. */
  dbPoolSize: number;
  /** Extra `node` flags for the service process (experiments such as --max-old-space-size=128). */
  serviceNodeFlags: string[];
}

function configFromEnv(): Config {
  const profile = numberFromEnv('BENCH_PROFILE', 0) > 0;
  return {
    orders: numberFromEnv('BENCH_ORDERS', 2000, 1),
    copies: numberFromEnv('BENCH_COPIES', 5, 2),
    concurrency: numberFromEnv('BENCH_CONCURRENCY', 64, 1),
    latencyMs: numberFromEnv('BENCH_PROVIDER_LATENCY_MS', 20, 0),
    // The service's own default (IDEM_WORKER_CONCURRENCY unset): the issue asks for embedded defaults.
    workerConcurrency: numberFromEnv('BENCH_WORKER_CONCURRENCY', loadConfig({}).worker.concurrency, 1),
    rounds: numberFromEnv('BENCH_ROUNDS', 3, 1),
    warmupOrders: numberFromEnv('BENCH_WARMUP_ORDERS', 500, 0),
    helloS: numberFromEnv('BENCH_HELLO_S', 10, 1),
    settleTimeoutS: numberFromEnv('BENCH_SETTLE_TIMEOUT_S', 180, 1),
    build: numberFromEnv('BENCH_BUILD', 1) > 0,
    resetSandbox: numberFromEnv('BENCH_RESET_SANDBOX', 1) > 0,
    workerInApi: numberFromEnv('BENCH_WORKER_IN_API', 1) > 0,
    settledReplays: numberFromEnv('BENCH_SETTLED_REPLAYS', 1) > 0,
    trace: profile || numberFromEnv('BENCH_TRACE', 0) > 0,
    profile,
    keep: numberFromEnv('BENCH_KEEP', 0) > 0,
    dbPoolSize: numberFromEnv('BENCH_DB_POOL_SIZE', 0, 0),
    // As npm start runs it (its heap limit), then any diagnostic flags, which win over those.
    serviceNodeFlags: [...startScriptNodeFlags(), ...(process.env.BENCH_SERVICE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean)],
  };
}

// ---------------------------------------------------------------------------------------------------
// Resource readings: CPU seconds of each process, of PostgreSQL, of the whole machine.

interface Reading {
  at: number;
  service?: number;
  postgres?: number;
  hello?: number;
  bench: number;
  machine?: { busy: number; total: number };
  pressureUs?: number;
  load1: number;
}

interface CpuSplit {
  wallS: number;
  /** Cores used on average over the window (CPU seconds / wall seconds). */
  service?: number;
  postgres?: number;
  hello?: number;
  bench: number;
  /** Everything else on the machine: other engineers' work, the kernel, … */
  other?: number;
  idle?: number;
  /** Share of the window in which some runnable task waited for a CPU (PSI "some"), 0..1. */
  pressure?: number;
  load1: number;
}

interface Pids {
  service?: number;
  postmaster?: number;
  hello?: number;
}

function read(pids: Pids): Reading {
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    service: processCpuSeconds(pids.service),
    postgres: postgresCpuSeconds(pids.postmaster),
    hello: processCpuSeconds(pids.hello),
    bench: (own.user + own.system) / 1e6,
    machine: machineCpuSeconds(),
    pressureUs: cpuPressureUs(),
    load1: loadavg()[0],
  };
}

function split(a: Reading, b: Reading): CpuSplit {
  const wallS = (b.at - a.at) / 1000;
  const cores = (x?: number, y?: number) => (x !== undefined && y !== undefined ? (y - x) / wallS : undefined);
  const service = cores(a.service, b.service);
  const postgres = cores(a.postgres, b.postgres);
  const hello = cores(a.hello, b.hello);
  const bench = (b.bench - a.bench) / wallS;
  const busy = cores(a.machine?.busy, b.machine?.busy);
  const total = cores(a.machine?.total, b.machine?.total);
  const ours = (service ?? 0) + (postgres ?? 0) + (hello ?? 0) + bench;
  return {
    wallS,
    service,
    postgres,
    hello,
    bench,
    other: busy !== undefined ? Math.max(0, busy - ours) : undefined,
    idle: busy !== undefined && total !== undefined ? Math.max(0, total - busy) : undefined,
    pressure: a.pressureUs !== undefined && b.pressureUs !== undefined ? (b.pressureUs - a.pressureUs) / 1e6 / wallS : undefined,
    load1: b.load1,
  };
}

function formatSplit(s: CpuSplit): string {
  const f = (v?: number) => (v === undefined ? '-' : v.toFixed(2));
  return `service ${f(s.service)}, PostgreSQL ${f(s.postgres)}, hello ${f(s.hello)}, load generator ${f(s.bench)}, other processes ${f(s.other)}, idle ${f(s.idle)} cores (load avg ${s.load1.toFixed(2)}${s.pressure !== undefined ? `, CPU pressure ${(s.pressure * 100).toFixed(0)} %` : ''})`;
}

// ---------------------------------------------------------------------------------------------------
// Diagnostics inside the service (BENCH_TRACE): see trace-preload.js.

interface TraceSnapshot {
  seq: number;
  cpu: { user: number; system: number };
  memory: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
  eventLoop: { activeMs: number; idleMs: number; delayP50Ms: number; delayP99Ms: number; delayMaxMs: number };
  queries: Record<string, { calls: number; ms: number; errors: number }>;
  pools: Record<string, { checkouts: number; waitMs: number; waitedOver1ms: number; maxWaiting: number; maxTotal: number }>;
}

class Tracer {
  private seq = 0;
  constructor(private readonly file: string) {}

  async command(command: string): Promise<TraceSnapshot> {
    const seq = ++this.seq;
    writeFileSync(`${this.file}.cmd.tmp`, `${seq} ${command}`);
    renameSync(`${this.file}.cmd.tmp`, `${this.file}.cmd`);
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        const snapshot = JSON.parse(readFileSync(this.file, 'utf8')) as TraceSnapshot;
        if (snapshot.seq >= seq) return snapshot;
      } catch {
        // not written yet
      }
      if (Date.now() > deadline) throw new Error(`the service did not answer the trace command "${command}"`);
      await sleep(20);
    }
  }
}

interface TraceDelta {
  requests: number;
  wallS: number;
  queriesPerRequest: number;
  statements: Array<{ statement: string; calls: number; perRequest: number; avgMs: number }>;
  pools: Array<{ pool: string; checkouts: number; avgWaitMs: number; waitedOver1ms: number; maxWaiting: number; maxTotal: number }>;
  eventLoopUtilization: number;
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
  nodeCpuCores: number;
  /** process.memoryUsage() at the end of the window, MiB. */
  memoryMb: { rss: number; heapTotal: number; heapUsed: number; external: number };
}

function traceDelta(a: TraceSnapshot, b: TraceSnapshot, requests: number, wallS: number): TraceDelta {
  const statements = Object.entries(b.queries)
    .map(([statement, q]) => {
      const before = a.queries[statement] ?? { calls: 0, ms: 0, errors: 0 };
      const calls = q.calls - before.calls;
      return { statement, calls, perRequest: calls / requests, avgMs: calls ? (q.ms - before.ms) / calls : 0 };
    })
    .filter((s) => s.calls > 0)
    .sort((x, y) => y.calls - x.calls);
  const total = statements.reduce((sum, s) => sum + s.calls, 0);
  const pools = Object.entries(b.pools).map(([pool, p]) => {
    const before = a.pools[pool] ?? { checkouts: 0, waitMs: 0, waitedOver1ms: 0, maxWaiting: 0, maxTotal: 0 };
    const checkouts = p.checkouts - before.checkouts;
    return { pool, checkouts, avgWaitMs: checkouts ? (p.waitMs - before.waitMs) / checkouts : 0, waitedOver1ms: p.waitedOver1ms - before.waitedOver1ms, maxWaiting: p.maxWaiting, maxTotal: p.maxTotal };
  });
  const active = b.eventLoop.activeMs - a.eventLoop.activeMs;
  const idle = b.eventLoop.idleMs - a.eventLoop.idleMs;
  return {
    requests,
    wallS,
    queriesPerRequest: total / requests,
    statements,
    pools,
    eventLoopUtilization: active / (active + idle),
    eventLoopDelayP99Ms: b.eventLoop.delayP99Ms,
    eventLoopDelayMaxMs: b.eventLoop.delayMaxMs,
    nodeCpuCores: (b.cpu.user + b.cpu.system - a.cpu.user - a.cpu.system) / 1e6 / wallS,
    memoryMb: { rss: b.memory.rss / 2 ** 20, heapTotal: b.memory.heapTotal / 2 ** 20, heapUsed: b.memory.heapUsed / 2 ** 20, external: b.memory.external / 2 ** 20 },
  };
}

// ---------------------------------------------------------------------------------------------------
// One round of the charge workload.

interface PhaseResult {
  requests: number;
  /** Answers that were what the phase expects (202 first, replayed duplicates). */
  ok: number;
  perSecond: number;
  elapsedS: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  statusCounts: Record<string, number>;
  errors: number;
  unexpected: string[];
  cpu: CpuSplit;
  /** The service's RSS right after the phase, MiB. */
  rssAfterMb?: number;
  trace?: TraceDelta;
  profile?: ProfileSummary;
}

interface RoundResult {
  label: string;
  first: PhaseResult;
  duplicates: PhaseResult;
  settledReplays?: PhaseResult;
  /** Seconds from the first request of phase 1 until the last order was seen paid. */
  allPaidAfterS?: number;
  settleCpu: CpuSplit;
  settleTrace?: TraceDelta;
  ordersPaid: number;
  providerCharges: number;
  ordersChargedTwice: number;
  ordersNotCharged: number;
  rssMaxMb: number;
}

interface Context {
  config: Config;
  service: ServiceProcess;
  pids: Pids;
  tracer?: Tracer;
  tempDir: string;
  rssMaxMb: number;
}

function orderBody(i: number): string {
  // Amounts end in 00: never the sandbox's "ends in 02" decline rule.
  return JSON.stringify({ amount: 1000 + (i % 1000) * 100, currency: 'EUR', customerId: `cus_bench_${i}` });
}

function phaseResult(load: LoadResult, ok: number, unexpected: string[], cpu: CpuSplit): PhaseResult {
  const lat = load.latenciesMs;
  return {
    requests: load.answered + load.errors,
    ok,
    perSecond: ok / (load.elapsedMs / 1000),
    elapsedS: load.elapsedMs / 1000,
    p50Ms: percentile(lat, 50),
    p90Ms: percentile(lat, 90),
    p99Ms: percentile(lat, 99),
    maxMs: percentile(lat, 100),
    statusCounts: load.statusCounts,
    errors: load.errors,
    unexpected: load.firstError ? [...unexpected, `error: ${load.firstError}`] : unexpected,
    cpu,
  };
}

async function armLatency(ctx: Context): Promise<void> {
  if (ctx.config.latencyMs <= 0) return;
  const answer = await fetch(`${ctx.service.sandboxUrl}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'latency', ms: ctx.config.latencyMs, probability: 1 }),
  });
  if (answer.status !== 201) throw new Error(`arming the sandbox latency failed: ${answer.status} ${await answer.text()}`);
}

async function resetSandbox(ctx: Context): Promise<void> {
  const answer = await fetch(`${ctx.service.sandboxUrl}/_sandbox/reset`, { method: 'POST' });
  if (!answer.ok) throw new Error(`sandbox reset failed: ${answer.status}`);
  await armLatency(ctx);
}

/** One measured phase: `total` POSTs at the configured concurrency, CPU split, trace and profile. */
async function postPhase(
  ctx: Context,
  name: string,
  total: number,
  request: (index: number) => { orderId: string; body: string },
  expected: (status: number, replayed: boolean) => boolean,
  profilePath: string | undefined,
): Promise<PhaseResult> {
  const traceBefore = ctx.tracer ? await ctx.tracer.command(profilePath ? 'profile-start' : 'snapshot') : undefined;
  const before = read(ctx.pids);
  let ok = 0;
  const unexpected: string[] = [];
  const load = await runLoad({
    url: ctx.service.apiUrl,
    concurrency: ctx.config.concurrency,
    headers: AUTH,
    total,
    request: (i) => {
      const { orderId, body } = request(i);
      return { method: 'POST', path: `/v1/orders/${orderId}/charge`, body };
    },
    onAnswer: (i, answer) => {
      if (expected(answer.status, answer.replayed)) ok++;
      else if (unexpected.length < 5) unexpected.push(`${request(i).orderId}: ${answer.status}${answer.replayed ? ' (replayed)' : ''} ${answer.body.toString().slice(0, 200)}`);
    },
  });
  const after = read(ctx.pids);
  const traceAfter = ctx.tracer ? await ctx.tracer.command(profilePath ? `profile-stop ${profilePath}` : 'snapshot') : undefined;
  if (load.answered === 0) throw new Error(`${name}: no request was answered (${load.firstError}); service output:\n${ctx.service.output().slice(-3000)}`);
  const result = phaseResult(load, ok, unexpected, split(before, after));
  result.rssAfterMb = memoryMb(ctx.service.pid)?.rss;
  if (traceBefore && traceAfter) result.trace = traceDelta(traceBefore, traceAfter, total, result.cpu.wallS);
  if (profilePath && existsSync(profilePath)) result.profile = summarizeProfile(profilePath);
  progress(
    `  ${name}: ${ok}/${total} as expected in ${result.elapsedS.toFixed(2)} s = ${formatRate(result.perSecond)}/s, ` +
      `p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms; ${formatSplit(result.cpu)}; service RSS ${result.rssAfterMb?.toFixed(0)} MiB`,
  );
  return result;
}

async function chargeRound(ctx: Context, label: string, orders: number, options: { profile: boolean }): Promise<RoundResult> {
  const { config, service } = ctx;
  const prefix = `bench-${randomBytes(3).toString('hex')}-${label}`;
  const ids = Array.from({ length: orders }, (_, i) => `${prefix}-${i}`);
  const bodies = ids.map((_, i) => orderBody(i));
  const profilePath = (phase: string) => (options.profile ? join(ctx.tempDir, `${label}-${phase}.cpuprofile`) : undefined);
  const duplicateCount = orders * (config.copies - 1);
  // Copies are interleaved: copy 2 of every order, then copy 3, … (never two copies of one order in a row).
  const duplicate = (j: number) => ({ orderId: ids[j % orders], body: bodies[j % orders] });
  const isReplay = (status: number, replayed: boolean) => (status === 202 || status === 200) && replayed;

  // Phase 1: the first request for every order (202, not a replay).
  const started = performance.now();
  const first = await postPhase(ctx, `${label} phase 1 (first requests)`, orders, (i) => ({ orderId: ids[i], body: bodies[i] }), (status, replayed) => status === 202 && !replayed, profilePath('first'));
  // Phase 2: the other copies, while the worker is charging these orders.
  const duplicates = await postPhase(ctx, `${label} phase 2 (duplicates)`, duplicateCount, duplicate, isReplay, profilePath('duplicates'));

  // Settle: wait until GET says paid for every order (read-your-writes: minRevision 2 = ChargeRequested,
  // ChargeAttemptStarted, outcome). The worker takes jobs roughly in order, so the newest pending orders
  // are probed first and the whole pending set is swept only once those are paid: the polling itself
  // must not become load on the service.
  const settleTraceBefore = ctx.tracer ? await ctx.tracer.command('snapshot') : undefined;
  const before = read(ctx.pids);
  const pending = new Set(ids.keys());
  let allPaidAt: number | undefined;
  let polls = 0;
  const deadline = Date.now() + config.settleTimeoutS * 1000;
  const checkPaid = async (indexes: number[]): Promise<number> => {
    let paid = 0;
    const load = await runLoad({
      url: service.apiUrl,
      concurrency: 8,
      headers: AUTH,
      total: indexes.length,
      request: (k) => ({ method: 'GET', path: `/v1/orders/${ids[indexes[k]]}?minRevision=2` }),
      onAnswer: (k, answer) => {
        if (answer.status === 200 && JSON.parse(answer.body.toString()).status === 'paid') {
          pending.delete(indexes[k]);
          paid++;
        }
      },
    });
    polls += indexes.length;
    if (load.errors === indexes.length) throw new Error(`settle: the api does not answer (${load.firstError}); service output:\n${service.output().slice(-3000)}`);
    if (load.errors) progress(`  settle poll: ${load.errors} errors (${load.firstError})`);
    return paid;
  };
  while (config.workerInApi && pending.size && Date.now() < deadline) {
    const newest = [...pending].slice(-8);
    if ((await checkPaid(newest)) === newest.length && pending.size) await checkPaid([...pending]);
    if (pending.size === 0) allPaidAt = performance.now();
    else await sleep(200);
  }
  const after = read(ctx.pids);
  const settleTraceAfter = ctx.tracer ? await ctx.tracer.command('snapshot') : undefined;
  const settleCpu = split(before, after);
  const ordersPaid = orders - pending.size;
  const allPaidAfterS = allPaidAt === undefined ? undefined : (allPaidAt - started) / 1000;

  // What the provider really holds for these orders: succeeded intents. `charge_attempts` also counts
  // a second charge the sandbox refused (it keeps one succeeded intent per order), so an order Idem
  // tried to charge twice still counts as charged twice.
  let providerCharges = 0;
  let ordersChargedTwice = 0;
  let ordersNotCharged = 0;
  const count = await runLoad({
    url: service.sandboxUrl,
    concurrency: 8,
    total: orders,
    request: (i) => ({ method: 'GET', path: `/_sandbox/charges?orderId=${encodeURIComponent(ids[i])}&status=succeeded` }),
    onAnswer: (_, answer) => {
      const { data, charge_attempts: attempts } = JSON.parse(answer.body.toString()) as { data: unknown[]; charge_attempts: number };
      const n = data.length;
      providerCharges += n;
      if (attempts > 1) ordersChargedTwice++;
      if (n === 0) ordersNotCharged++;
    },
  });
  if (count.errors || count.answered !== orders) throw new Error(`counting the sandbox's charges failed: ${count.firstError ?? `${count.answered}/${orders} answered`}`);
  if (config.workerInApi) {
    progress(
      `  ${label} settle: ${ordersPaid}/${orders} orders paid` +
        (allPaidAfterS !== undefined ? ` ${allPaidAfterS.toFixed(2)} s after the first request (${formatRate(orders / allPaidAfterS)} orders/s end to end)` : ` (timed out after ${config.settleTimeoutS} s)`) +
        `; provider holds ${providerCharges} succeeded intents (${ordersChargedTwice} orders charged twice, ${ordersNotCharged} not charged); ${polls} GETs polled; ${formatSplit(settleCpu)}`,
    );
  }

  // Diagnostic phase 3: the same duplicates again, now that every order is settled and the worker is
  // idle — what a replay costs on its own.
  const settledReplays =
    config.settledReplays ? await postPhase(ctx, `${label} phase 3 (duplicates of settled orders, diagnostic)`, duplicateCount, duplicate, isReplay, profilePath('settled-replays')) : undefined;

  const rssMaxMb = ctx.rssMaxMb;
  if (config.resetSandbox) await resetSandbox(ctx);
  return {
    label,
    first,
    duplicates,
    settledReplays,
    allPaidAfterS,
    settleCpu,
    settleTrace: settleTraceBefore && settleTraceAfter ? traceDelta(settleTraceBefore, settleTraceAfter, orders, settleCpu.wallS) : undefined,
    ordersPaid,
    providerCharges,
    ordersChargedTwice,
    ordersNotCharged,
    rssMaxMb,
  };
}

// ---------------------------------------------------------------------------------------------------
// The hello ceiling.

interface Hello {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

function startHello(): Promise<Hello> {
  const child = spawn(process.execPath, ['-r', resolve(REPO, 'bench/lib/register.js'), resolve(__dirname, 'hello-app.ts')], {
    cwd: REPO,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hello app did not start:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /hello listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolvePromise({
        child,
        url: match[1],
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`hello app exited:\n${output}`));
    });
  });
}

interface HelloResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  cpu: CpuSplit;
}

async function helloRound(hello: Hello, ctx: Context, seconds: number): Promise<HelloResult> {
  const before = read(ctx.pids);
  let ok = 0;
  const load = await runLoad({
    url: hello.url,
    concurrency: ctx.config.concurrency,
    headers: AUTH,
    durationMs: seconds * 1000,
    request: (i) => ({ method: 'POST', path: `/v1/orders/hello-${i}/charge`, body: orderBody(i) }),
    onAnswer: (_, answer) => {
      if (answer.status === 202) ok++;
    },
  });
  const after = read(ctx.pids);
  return {
    rps: ok / (load.elapsedMs / 1000),
    p50Ms: percentile(load.latenciesMs, 50),
    p99Ms: percentile(load.latenciesMs, 99),
    non2xx: load.answered - ok,
    errors: load.errors,
    cpu: split(before, after),
  };
}

// ---------------------------------------------------------------------------------------------------

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

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
    progress(`service pid ${service.pid}: api ${service.apiUrl}, sandbox ${service.sandboxUrl}, PostgreSQL postmaster pid ${ctx.pids.postmaster ?? '?'}`);
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
      progress(`  hello: ${formatRate(h.rps)} requests/s, p50 ${h.p50Ms.toFixed(1)} ms, p99 ${h.p99Ms.toFixed(1)} ms; ${formatSplit(h.cpu)}`);
    }

    if (ctx.tracer) {
      const collected = (await ctx.tracer.command('gc')).memory;
      const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
      progress(`after a full GC (traced run): RSS ${mib(collected.rss)} MiB, V8 heap ${mib(collected.heapUsed)} used of ${mib(collected.heapTotal)} MiB, external ${mib(collected.external)} MiB`);
    }
    const memory = memoryMb(service.pid);
    const peakRssMb = Math.max(memory?.hwm ?? 0, ctx.rssMaxMb);
    const endLoad = loadavg();
    report(config, machine, postgres, rounds, hellos, peakRssMb, startedMemory?.rss, endLoad);
  } finally {
    await cleanup();
  }
}

// ---------------------------------------------------------------------------------------------------

function report(
  config: Config,
  machine: MachineInfo,
  postgres: PostgresInfo,
  rounds: RoundResult[],
  hellos: HelloResult[],
  peakRssMb: number,
  startRssMb: number | undefined,
  endLoad: number[],
): void {
  const firsts = spread(rounds.map((r) => r.first.perSecond));
  const dups = spread(rounds.map((r) => r.duplicates.perSecond));
  const p99First = median(rounds.map((r) => r.first.p99Ms));
  const p99Dup = median(rounds.map((r) => r.duplicates.p99Ms));
  const settled = rounds.every((r) => r.settledReplays) ? spread(rounds.map((r) => r.settledReplays!.perSecond)) : undefined;
  const p99Settled = settled ? median(rounds.map((r) => r.settledReplays!.p99Ms)) : undefined;
  const helloRps = spread(hellos.map((h) => h.rps));
  // The round furthest from "exactly one charge and one paid order per order" speaks for the run.
  const worst = (pick: (r: RoundResult) => number) => rounds.map(pick).reduce((a, b) => (Math.abs(b - config.orders) > Math.abs(a - config.orders) ? b : a));
  const providerCharges = worst((r) => r.providerCharges);
  const ordersPaid = worst((r) => r.ordersPaid);
  const phasesOf = (r: RoundResult) => [r.first, r.duplicates, ...(r.settledReplays ? [r.settledReplays] : [])];
  const errors = rounds.reduce((sum, r) => sum + phasesOf(r).reduce((n, p) => n + p.errors + (p.requests - p.errors - p.ok), 0), 0);
  const medianSplit = (splits: CpuSplit[]): CpuSplit => {
    const m = (pick: (s: CpuSplit) => number | undefined) => {
      const values = splits.map(pick).filter((v): v is number => v !== undefined);
      return values.length ? median(values) : undefined;
    };
    return {
      wallS: m((s) => s.wallS)!,
      service: m((s) => s.service),
      postgres: m((s) => s.postgres),
      hello: m((s) => s.hello),
      bench: m((s) => s.bench)!,
      other: m((s) => s.other),
      idle: m((s) => s.idle),
      pressure: m((s) => s.pressure),
      load1: m((s) => s.load1)!,
    };
  };
  // CPU time per answered request, µs, median over rounds.
  const usPer = (phases: PhaseResult[], part: 'service' | 'postgres') => Math.round(median(phases.map((p) => ((p.cpu[part] ?? NaN) / p.perSecond) * 1e6)));

  // CPU of everything one order costs (API, projections, reactor, job, sandbox, webhook), from the CPU of
  // phases 1 + 2 + settling with the duplicates taken out at what a settled replay costs.
  const pipelinePart = (part: 'service' | 'postgres') =>
    median(
      rounds.map((r) => {
        const seconds = (c: CpuSplit) => (c[part] ?? NaN) * c.wallS;
        const replay = r.settledReplays ? seconds(r.settledReplays.cpu) / r.settledReplays.ok : NaN;
        return ((seconds(r.first.cpu) + seconds(r.duplicates.cpu) + seconds(r.settleCpu) - replay * r.duplicates.ok) / config.orders) * 1000;
      }),
    );
  const pipelineMs = settled && config.workerInApi ? { service: pipelinePart('service'), postgres: pipelinePart('postgres') } : undefined;

  const lines: string[] = [];
  const f1 = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(1));
  lines.push('');
  lines.push(
    `Charges: ${config.orders} orders × ${config.copies} requests over HTTP at concurrency ${config.concurrency}; sandbox latency ${config.latencyMs} ms; ` +
      `worker concurrency ${config.workerConcurrency}${config.workerInApi ? '' : ' (WORKER NOT IN THE API PROCESS: diagnostic mode, nothing gets charged)'}; ` +
      (config.serviceNodeFlags.length ? `service node flags ${config.serviceNodeFlags.join(' ')}; ` : '') +
      `${config.rounds} rounds after a ${config.warmupOrders}-order warm-up${config.trace ? '; TRACED (instrumented: figures are lower than an untraced run)' : ''}.`,
  );
  lines.push(describeMachine(machine, postgres));
  lines.push(`load average at the end: ${endLoad.map((v) => v.toFixed(2)).join(' ')} (2 shared cores: other engineers' runs compete for them)`);
  lines.push('');
  lines.push('         phase 1: first       phase 2: duplicates   phase 3: settled dups');
  lines.push('round    /s  p50 ms  p99 ms      /s  p50 ms  p99 ms      /s  p50 ms  p99 ms  paid after s  paid  charges  hello/s  hello p99  load1');
  rounds.forEach((r, i) => {
    const h = hellos[i];
    const cols = (p?: PhaseResult) => [formatRate(p?.perSecond ?? NaN).padStart(7), f1(p?.p50Ms).padStart(7), f1(p?.p99Ms).padStart(7)];
    lines.push(
      [
        r.label.padEnd(5),
        ...cols(r.first),
        ...cols(r.duplicates),
        ...cols(r.settledReplays),
        f1(r.allPaidAfterS).padStart(13),
        String(r.ordersPaid).padStart(5),
        String(r.providerCharges).padStart(8),
        formatRate(h.rps).padStart(8),
        f1(h.p99Ms).padStart(10),
        r.first.cpu.load1.toFixed(2).padStart(6),
      ].join(' '),
    );
  });
  lines.push('');
  lines.push('CPU in cores (median over rounds; the machine has 2; "other processes" is everyone else on the machine):');
  lines.push(`  phase 1 (first requests, worker charging alongside): ${formatSplit(medianSplit(rounds.map((r) => r.first.cpu)))}`);
  lines.push(`  phase 2 (duplicates, worker charging alongside):     ${formatSplit(medianSplit(rounds.map((r) => r.duplicates.cpu)))}`);
  lines.push(`  settling (worker only, bench polls GET):             ${formatSplit(medianSplit(rounds.map((r) => r.settleCpu)))}`);
  if (settled) lines.push(`  phase 3 (duplicates of settled orders):              ${formatSplit(medianSplit(rounds.map((r) => r.settledReplays!.cpu)))}`);
  lines.push(`  hello ceiling (service idle):                        ${formatSplit(medianSplit(hellos.map((h) => h.cpu)))}`);
  lines.push(
    `  CPU per answered request (median round): phase 1 service ${usPer(rounds.map((r) => r.first), 'service')} µs + PostgreSQL ${usPer(rounds.map((r) => r.first), 'postgres')} µs; ` +
      `phase 2 service ${usPer(rounds.map((r) => r.duplicates), 'service')} µs + PostgreSQL ${usPer(rounds.map((r) => r.duplicates), 'postgres')} µs` +
      (settled ? `; phase 3 service ${usPer(rounds.map((r) => r.settledReplays!), 'service')} µs + PostgreSQL ${usPer(rounds.map((r) => r.settledReplays!), 'postgres')} µs` : '') +
      `; hello app ${Math.round(median(hellos.map((h) => ((h.cpu.hello ?? NaN) / h.rps) * 1e6)))} µs`,
  );
  if (pipelineMs) {
    lines.push(
      `  The whole charge pipeline per order (CPU over phases 1, 2 and settling, minus the duplicates at their phase-3 cost; includes idle polling and the bench's GETs): ` +
        `service ${pipelineMs.service.toFixed(2)} ms + PostgreSQL ${pipelineMs.postgres.toFixed(2)} ms`,
    );
  }
  lines.push(`Memory: service RSS ${startRssMb?.toFixed(0) ?? '?'} MiB after start, peak ${peakRssMb.toFixed(0)} MiB (VmHWM; embedded PostgreSQL's own processes not included).`);
  for (const r of rounds) {
    for (const [name, phase] of [
      ['phase 1', r.first],
      ['phase 2', r.duplicates],
      ['phase 3', r.settledReplays],
    ] as const) {
      if (phase?.unexpected.length) lines.push(`${r.label} ${name}: unexpected answers ${JSON.stringify(phase.statusCounts)}: ${phase.unexpected.join(' | ')}`);
    }
  }
  const last = rounds[rounds.length - 1];
  if (last.first.trace) {
    lines.push('');
    lines.push(`Trace of the service (round ${last.label}; instrumented run; "per request" divides by the phase's HTTP requests, settling by orders):`);
    for (const [name, trace] of [
      ['phase 1 (first requests, worker running alongside)', last.first.trace],
      ['phase 2 (duplicates, worker running alongside)', last.duplicates.trace],
      ['settling (worker, plus the bench polling GET /v1/orders)', last.settleTrace],
      ['phase 3 (duplicates of settled orders)', last.settledReplays?.trace],
    ] as const) {
      if (!trace) continue;
      lines.push(
        `  ${name}: ${trace.queriesPerRequest.toFixed(2)} SQL statements per request, event loop ${(trace.eventLoopUtilization * 100).toFixed(0)} % busy ` +
          `(delay p99 ${trace.eventLoopDelayP99Ms.toFixed(1)} ms, max ${trace.eventLoopDelayMaxMs.toFixed(1)} ms), Node ${trace.nodeCpuCores.toFixed(2)} cores; ` +
          `at the end RSS ${trace.memoryMb.rss.toFixed(0)} MiB, V8 heap ${trace.memoryMb.heapUsed.toFixed(0)} used of ${trace.memoryMb.heapTotal.toFixed(0)} MiB, external ${trace.memoryMb.external.toFixed(0)} MiB`,
      );
      for (const p of trace.pools) {
        if (p.checkouts) lines.push(`    pool ${p.pool}: ${p.checkouts} checkouts, avg wait ${p.avgWaitMs.toFixed(2)} ms, ${p.waitedOver1ms} waited > 1 ms, max ${p.maxWaiting} waiting, ${p.maxTotal} connections`);
      }
      for (const st of trace.statements.slice(0, 14)) {
        lines.push(`    ${st.perRequest.toFixed(3).padStart(7)}/req  ${String(st.calls).padStart(6)} calls  ${st.avgMs.toFixed(2).padStart(6)} ms avg  ${st.statement}`);
      }
    }
  }
  for (const [name, phase] of [
    ['phase 1', last.first],
    ['phase 2', last.duplicates],
    ['phase 3', last.settledReplays],
  ] as const) {
    const profile = phase?.profile;
    if (!profile) continue;
    const busy = profile.totalMs - (profile.self.find(([area]) => area === 'idle')?.[1] ?? 0);
    const pct = (ms: number) => `${((ms / busy) * 100).toFixed(1)} %`;
    lines.push('');
    lines.push(`CPU profile of the service's main thread, ${name} of ${last.label}: ${busy.toFixed(0)} ms busy of ${profile.totalMs.toFixed(0)} ms (shares of busy time)`);
    lines.push(`  self time:  ${profile.self.filter(([a]) => a !== 'idle').slice(0, 16).map(([a, ms]) => `${a} ${pct(ms)}`).join(', ')}`);
    lines.push(`  by owner:   ${profile.owner.filter(([a]) => a !== 'idle').slice(0, 16).map(([a, ms]) => `${a} ${pct(ms)}`).join(', ')}`);
    lines.push(`  inclusive:  ${profile.inclusive.filter(([a]) => a !== 'idle').slice(0, 22).map(([a, ms]) => `${a} ${pct(ms)}`).join(', ')}`);
    lines.push(`  hottest:    ${profile.topFunctions.filter(([fn]) => !fn.startsWith('(idle)')).slice(0, 12).map(([fn, ms]) => `${fn} ${pct(ms)}`).join('; ')}`);
  }
  const met = {
    first_charges_per_s: firsts.median >= TARGETS.first_charges_per_s,
    duplicate_replays_per_s: dups.median >= TARGETS.duplicate_replays_per_s,
    p99_duplicate_ms: p99Dup <= TARGETS.p99_duplicate_ms,
    exactly_once: rounds.every((r) => r.providerCharges === config.orders && r.ordersPaid === config.orders && r.ordersChargedTwice === 0),
    peak_rss_mb: peakRssMb <= TARGETS.peak_rss_mb,
  };
  const verdict = (ok: boolean) => (ok ? 'MET' : 'MISSED');
  lines.push('');
  lines.push(`Summary (medians of ${rounds.length} rounds, min–max):`);
  lines.push(`  first charges      ${formatRate(firsts.median)}/s (${formatRate(firsts.min)}–${formatRate(firsts.max)}), p99 ${p99First.toFixed(1)} ms   target ≥ ${TARGETS.first_charges_per_s}/s: ${verdict(met.first_charges_per_s)}`);
  lines.push(`  duplicate replays  ${formatRate(dups.median)}/s (${formatRate(dups.min)}–${formatRate(dups.max)}), p99 ${p99Dup.toFixed(1)} ms   targets ≥ ${TARGETS.duplicate_replays_per_s}/s: ${verdict(met.duplicate_replays_per_s)}, p99 ≤ ${TARGETS.p99_duplicate_ms} ms: ${verdict(met.p99_duplicate_ms)}`);
  if (settled) lines.push(`  (diagnostic) duplicates of settled orders ${formatRate(settled.median)}/s (${formatRate(settled.min)}–${formatRate(settled.max)}), p99 ${p99Settled!.toFixed(1)} ms`);
  lines.push(`  hello ceiling      ${formatRate(helloRps.median)}/s (${formatRate(helloRps.min)}–${formatRate(helloRps.max)})`);
  lines.push(`  exactly once       provider charges ${providerCharges}, orders paid ${ordersPaid} (want ${config.orders} each, every round): ${verdict(met.exactly_once)}`);
  lines.push(`  peak RSS           ${peakRssMb.toFixed(0)} MiB   target ≤ ${TARGETS.peak_rss_mb}: ${verdict(met.peak_rss_mb)}`);
  lines.push(`  unexpected answers or transport errors: ${errors}`);
  lines.push('');
  process.stdout.write(lines.join('\n') + '\n');

  const n = (value: number | undefined, digits = 0) => (value === undefined || Number.isNaN(value) ? null : round(value, digits));
  const summary = {
    first_charges_per_s: n(firsts.median),
    duplicate_replays_per_s: n(dups.median),
    p99_first_ms: n(p99First, 1),
    p99_duplicate_ms: n(p99Dup, 1),
    hello_rps: n(helloRps.median),
    provider_charges: providerCharges,
    orders_paid: ordersPaid,
    peak_rss_mb: n(peakRssMb),
    targets_met: met,
    settled_duplicate_replays_per_s: n(settled?.median),
    p99_settled_duplicate_ms: n(p99Settled, 1),
    rounds: rounds.length,
    runs: {
      first_charges_per_s: firsts.runs.map((v) => n(v)),
      duplicate_replays_per_s: dups.runs.map((v) => n(v)),
      p99_first_ms: rounds.map((r) => n(r.first.p99Ms, 1)),
      p99_duplicate_ms: rounds.map((r) => n(r.duplicates.p99Ms, 1)),
      settled_duplicate_replays_per_s: rounds.map((r) => n(r.settledReplays?.perSecond)),
      hello_rps: helloRps.runs.map((v) => n(v)),
      all_paid_after_s: rounds.map((r) => n(r.allPaidAfterS, 2)),
      provider_charges: rounds.map((r) => r.providerCharges),
      orders_paid: rounds.map((r) => r.ordersPaid),
      load1: rounds.map((r) => n(r.first.cpu.load1, 2)),
    },
    unexpected_answers_or_errors: errors,
    cpu_cores: {
      first: roundSplit(medianSplit(rounds.map((r) => r.first.cpu))),
      duplicates: roundSplit(medianSplit(rounds.map((r) => r.duplicates.cpu))),
      settle: roundSplit(medianSplit(rounds.map((r) => r.settleCpu))),
      settled_duplicates: settled ? roundSplit(medianSplit(rounds.map((r) => r.settledReplays!.cpu))) : null,
      hello: roundSplit(medianSplit(hellos.map((h) => h.cpu))),
    },
    cpu_us_per_request: {
      first: { service: usPer(rounds.map((r) => r.first), 'service'), postgres: usPer(rounds.map((r) => r.first), 'postgres') },
      duplicates: { service: usPer(rounds.map((r) => r.duplicates), 'service'), postgres: usPer(rounds.map((r) => r.duplicates), 'postgres') },
      settled_duplicates: settled ? { service: usPer(rounds.map((r) => r.settledReplays!), 'service'), postgres: usPer(rounds.map((r) => r.settledReplays!), 'postgres') } : null,
      hello: Math.round(median(hellos.map((h) => ((h.cpu.hello ?? NaN) / h.rps) * 1e6))),
    },
    cpu_ms_per_order_pipeline: pipelineMs ? { service: n(pipelineMs.service, 2), postgres: n(pipelineMs.postgres, 2) } : null,
    load_average_end: endLoad.map((v) => round(v, 2)),
    traced: config.trace,
    config: {
      orders: config.orders,
      copies: config.copies,
      concurrency: config.concurrency,
      provider_latency_ms: config.latencyMs,
      worker_concurrency: config.workerConcurrency,
      worker_in_api: config.workerInApi,
      service_node_flags: config.serviceNodeFlags.join(' '),
      warmup_orders: config.warmupOrders,
      hello_s: config.helloS,
    },
    machine: { cores: machine.cores, cpu: machine.cpuModel, node: machine.node, postgres: postgres.version },
  };
  process.stdout.write(JSON.stringify(summary) + '\n');
}

function roundSplit(s: CpuSplit): Record<string, number | null> {
  const r = (v?: number) => (v === undefined ? null : round(v, 2));
  return { service: r(s.service), postgres: r(s.postgres), hello: r(s.hello), load_generator: r(s.bench), other: r(s.other), idle: r(s.idle), cpu_pressure: r(s.pressure), load1: r(s.load1) };
}

main().catch((error) => {
  process.stderr.write(`bench:charges failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
