import { randomUUID } from 'node:crypto';
import { DEFAULT_LATENCY_MS, DEFAULT_TIMEOUT_MS, type Fault, type FaultKind, type FaultSpec } from './fault';
import { seededRandom } from './seeded-random';

const DEFAULT_SEED = 1;

/**
 * The faults waiting for create requests. Faults are consulted in the order they were added and the
 * first one that strikes is the only one applied to that request.
 */
export class FaultPlan {
  private faults: Array<{ fault: Fault; random?: () => number }> = [];

  add(spec: FaultSpec): Fault {
    const probabilistic = spec.probability !== undefined;
    const fault: Fault = {
      id: `flt_${randomUUID()}`,
      kind: spec.kind,
      ...(spec.orderId !== undefined && { orderId: spec.orderId }),
      ...(defaultMs(spec) !== undefined && { ms: defaultMs(spec) }),
      ...(probabilistic ? { probability: spec.probability, seed: spec.seed ?? DEFAULT_SEED } : { remaining: spec.times ?? 1 }),
      stored: spec.stored ?? true,
      hits: 0,
    };
    this.faults.push({ fault, ...(probabilistic && { random: seededRandom(fault.seed ?? DEFAULT_SEED) }) });
    return { ...fault };
  }

  list(): Fault[] {
    return this.faults.map(({ fault }) => ({ ...fault }));
  }

  clear(): void {
    this.faults = [];
  }

  /**
   * The fault that strikes this create request, if any; a counted fault uses up one of its hits. `where`
   * names the faults of the point the request has reached (the rate limiter in front of the idempotency
   * layer, or execution after it).
   */
  strike(orderId: string | undefined, where: (kind: FaultKind) => boolean = () => true): Fault | undefined {
    for (const entry of this.faults) {
      const { fault } = entry;
      if (!where(fault.kind)) continue;
      if (fault.orderId !== undefined && fault.orderId !== orderId) continue;
      // Every matching request draws, so the sequence of hits depends only on the seed and the order of requests.
      if (entry.random && !(entry.random() < (fault.probability ?? 0))) continue;
      fault.hits += 1;
      if (fault.remaining !== undefined) {
        fault.remaining -= 1;
        if (fault.remaining === 0) this.faults = this.faults.filter((other) => other !== entry);
      }
      return { ...fault };
    }
    return undefined;
  }
}

function defaultMs(spec: FaultSpec): number | undefined {
  if (spec.kind === 'latency') return spec.ms ?? DEFAULT_LATENCY_MS;
  if (spec.kind === 'timeout') return spec.ms ?? DEFAULT_TIMEOUT_MS;
  return undefined;
}
