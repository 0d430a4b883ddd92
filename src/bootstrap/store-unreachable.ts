import { redact } from './redact';

/**
 * A DATABASE_URL or EVENTSTORE_CONNECTION_STRING that leads nowhere — nothing listening, a wrong
 * password, a database that does not exist, a host that does not resolve — is the operator's to fix.
 * Start-up (and any `idem` command) says so in one line naming the variable, its value with the
 * password masked, and the driver's reason. Without this the first migration's query failed deep
 * inside pg-pool and the service printed the driver's stack (`Idem failed to start: Error: connect
 * ECONNREFUSED …` and seven `at …` lines), the CLI only `idem: connect ECONNREFUSED 127.0.0.1:1`.
 */
export class StoreUnreachable extends Error {
  constructor(store: string, variable: string, value: string, cause: unknown) {
    super(`cannot reach ${store} at ${variable}=${redact(value)}: ${reasonOf(cause)}`, { cause });
    this.name = 'StoreUnreachable';
  }
}

/** Runs `probe` (the store's cheapest read); any failure becomes a {@link StoreUnreachable}. */
export async function ensureReachable(store: string, variable: string, value: string, probe: () => Promise<unknown>): Promise<void> {
  try {
    await probe();
  } catch (error) {
    throw new StoreUnreachable(store, variable, value, error);
  }
}

/**
 * One line of the driver's reason. Errors are read by shape, not `instanceof`: a socket's error may
 * come from another realm. Node reports a host with several addresses as an AggregateError without a
 * message of its own.
 */
function reasonOf(error: unknown): string {
  const { message, errors, name } = (error ?? {}) as { message?: unknown; errors?: unknown; name?: unknown };
  if (!message && Array.isArray(errors) && errors.length) return [...new Set(errors.map(reasonOf))].join('; ');
  const text = typeof message === 'string' ? message : String(error);
  return text.replace(/\s+/g, ' ').trim() || (typeof name === 'string' ? name : 'no reason given');
}
