/**
 * Faults injected into `POST /v1/payment_intents`. Where each one strikes:
 * - before execution: `latency` (wait, then proceed), `error_500` (answer 500, create nothing),
 *   `timeout` (hold, create nothing, then destroy the socket);
 * - after commit (the intent exists and its answer is stored under the key): `drop_after_commit`
 *   (destroy the socket), `reset_after_commit` (TCP RST), `hold_after_commit` (answer only on release);
 * - in front of the idempotency layer: `rate_limit` (429 `rate_limit_error`, nothing run or stored;
 *   see rateLimited in api/stripe-errors.ts).
 */
export const FAULT_KINDS = [
  'latency',
  'error_500',
  'timeout',
  'drop_after_commit',
  'reset_after_commit',
  'hold_after_commit',
  'rate_limit',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  /** Number of matching requests to hit (default 1). Not combined with `probability`. */
  times?: number;
  /** Only requests whose `metadata[order_id]` equals this. */
  orderId?: string;
  /** latency: delay (default 1000); timeout: how long to hold before destroying the socket (default 30000). */
  ms?: number;
  /** Hit each matching request with this chance (0..1), until the faults are cleared. */
  probability?: number;
  /** Seed for `probability` (default 1), so runs are reproducible. */
  seed?: number;
  /** error_500 only: store the 500 under the idempotency key, as Stripe does for endpoint errors (default true). */
  stored?: boolean;
}

export interface Fault {
  id: string;
  kind: FaultKind;
  orderId?: string;
  ms?: number;
  /** Hits left when counted by `times`; undefined for probabilistic faults. */
  remaining?: number;
  probability?: number;
  seed?: number;
  stored: boolean;
  hits: number;
}

export const DEFAULT_LATENCY_MS = 1000;
export const DEFAULT_TIMEOUT_MS = 30_000;

export type ParsedFault = { ok: true; spec: FaultSpec } | { ok: false; message: string };

/** Every setting a fault takes (FaultSpec). */
const FAULT_SETTINGS: ReadonlySet<string> = new Set(['kind', 'times', 'orderId', 'ms', 'probability', 'seed', 'stored']);

export function parseFaultSpec(input: unknown): ParsedFault {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return invalid('body must be a JSON object');
  const spec = input as Record<string, unknown>;
  // A misspelt setting is refused, not dropped: `orderID` would arm the fault for every order, and
  // `probabilty` make it strike once — another fault than the one asked for, with nothing to say so.
  const unknown = Object.keys(spec).filter((setting) => !FAULT_SETTINGS.has(setting));
  if (unknown.length) return invalid(`unknown setting ${unknown.join(', ')}: a fault takes ${[...FAULT_SETTINGS].join(', ')}`);
  if (!FAULT_KINDS.includes(spec.kind as FaultKind)) return invalid(`kind must be one of ${FAULT_KINDS.join(', ')}`);
  if (spec.times !== undefined && !(Number.isInteger(spec.times) && (spec.times as number) >= 1)) {
    return invalid('times must be an integer >= 1');
  }
  if (spec.probability !== undefined) {
    const p = spec.probability;
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) return invalid('probability must be a number between 0 and 1');
    if (spec.times !== undefined) return invalid('use either times or probability, not both');
  }
  if (spec.seed !== undefined && !Number.isInteger(spec.seed)) return invalid('seed must be an integer');
  if (spec.ms !== undefined && !(Number.isInteger(spec.ms) && (spec.ms as number) >= 0)) {
    return invalid('ms must be an integer >= 0');
  }
  if (spec.orderId !== undefined && (typeof spec.orderId !== 'string' || spec.orderId === '')) {
    return invalid('orderId must be a non-empty string');
  }
  if (spec.stored !== undefined && (typeof spec.stored !== 'boolean' || spec.kind !== 'error_500')) {
    return invalid('stored is a boolean and only applies to error_500');
  }
  return { ok: true, spec: spec as unknown as FaultSpec };
}

function invalid(message: string): ParsedFault {
  return { ok: false, message };
}
