/** Diagnostics inside the service (BENCH_TRACE): see trace-preload.js. */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface TraceSnapshot {
  seq: number;
  cpu: { user: number; system: number };
  memory: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
  eventLoop: { activeMs: number; idleMs: number; delayP50Ms: number; delayP99Ms: number; delayMaxMs: number };
  queries: Record<string, { calls: number; ms: number; errors: number }>;
  pools: Record<string, { checkouts: number; waitMs: number; waitedOver1ms: number; maxWaiting: number; maxTotal: number }>;
}

export class Tracer {
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

export interface TraceDelta {
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

export function traceDelta(a: TraceSnapshot, b: TraceSnapshot, requests: number, wallS: number): TraceDelta {
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
    return {
      pool,
      checkouts,
      avgWaitMs: checkouts ? (p.waitMs - before.waitMs) / checkouts : 0,
      waitedOver1ms: p.waitedOver1ms - before.waitedOver1ms,
      maxWaiting: p.maxWaiting,
      maxTotal: p.maxTotal,
    };
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
    memoryMb: {
      rss: b.memory.rss / 2 ** 20,
      heapTotal: b.memory.heapTotal / 2 ** 20,
      heapUsed: b.memory.heapUsed / 2 ** 20,
      external: b.memory.external / 2 ** 20,
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
