/**
 * One Prometheus registry per api: the process's default metrics (CPU, memory, event-loop lag, GC)
 * and the api's own. Features that count something (alerts, outcomes) use prom-client's global
 * registry — `new Counter({ name: 'idem_…', … })` — so the kernel needs to know none of them:
 * /metrics serves both.
 */
import { collectDefaultMetrics, register as featureRegistry, Registry } from 'prom-client';

/** Nest injection token of the api's {@link Registry}. */
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** The api's registry and the features' in one exposition. */
export const exposition = (registry: Registry): Promise<string> => Registry.merge([registry, featureRegistry]).metrics();
