/**
 * One Prometheus registry per api: the process's default metrics (CPU, memory, event-loop lag,
 * handles, heap) and the api's own. Features that count something (alerts, outcomes) use
 * prom-client's global registry — `new Counter({ name: 'idem_…', … })` — so the kernel needs to know
 * none of them: /metrics serves both.
 *
 * Every default metric but one: `nodejs_gc_duration_seconds` observes each garbage collection through
 * a perf_hooks PerformanceObserver, a performance entry and a callback per collection, and this service
 * collects young garbage hundreds of times a second under load; with it, bench:charges answered about
 * a quarter fewer first charges and duplicates a second (docs/BENCHMARKS.md). The rest are read when
 * /metrics is scraped, or sampled by libuv (event-loop delay).
 */
import { register as featureRegistry, Registry } from 'prom-client';

/** prom-client 15's default metrics (lib/defaultMetrics.js), without `gc`; the version is pinned exactly. */
const DEFAULT_METRICS_WITHOUT_GC = [
  'processCpuTotal',
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  'eventLoopLag',
  'processResources',
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
] as const;

type DefaultMetric = (registry: Registry, config: { eventLoopMonitoringPrecision: number }) => void;

function collectDefaultMetricsWithoutGc(registry: Registry): void {
  for (const name of DEFAULT_METRICS_WITHOUT_GC) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- prom-client exports no single default metric
    const collect = require(`prom-client/lib/metrics/${name}`) as DefaultMetric;
    collect(registry, { eventLoopMonitoringPrecision: 10 });
  }
}

/** Nest injection token of the api's {@link Registry}. */
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetricsWithoutGc(registry);
  return registry;
}

/** The api's registry and the features' in one exposition. */
export const exposition = (registry: Registry): Promise<string> => Registry.merge([registry, featureRegistry]).metrics();
