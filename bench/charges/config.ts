/** bench:charges' settings (environment variables, see run.ts) and targets. */
import { numberFromEnv } from '../lib/env';
import { loadConfig } from '../../src/config/config';
import { startScriptNodeFlags } from './service';

export const TARGETS = { first_charges_per_s: 1500, duplicate_replays_per_s: 4000, p99_duplicate_ms: 50, peak_rss_mb: 300 };
export const AUTH = { authorization: 'Bearer dev-storefront' };

export interface Config {
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

export function configFromEnv(): Config {
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
