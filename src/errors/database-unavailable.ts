/**
 * Errors that say the database could not be reached or dropped the connection (PostgreSQL stopped,
 * restarting, out of connection slots), not that the request or the code is wrong. The problem+json
 * filter answers them 503 with Retry-After instead of 500: every Idem write is safe to send again, and a
 * client or load balancer can then tell an outage from a defect. /health/ready says the same meanwhile.
 */

/** Node's socket errors for a server that is not there or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs for the same: class 08 (connection exception), 57P01–57P03 (shut down by an
 * administrator or a crash, not accepting connections yet) and 53300 (too many connections).
 */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** What `pg` and `pg-pool` throw, without a code, when a connection ends or none comes in time. */
const MESSAGES = [/^Connection terminated/, /^timeout exceeded when trying to connect$/, /is not queryable$/];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
  return MESSAGES.some((message) => message.test(error.message));
}

/** Seconds a client should wait before sending the request again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
