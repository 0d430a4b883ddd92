/**
 * Whether an error means that the database or the event store cannot be reached for now (stopped,
 * restarting, unreachable, out of connections), rather than that the request or our code is wrong.
 * The api answers such an error 503 with Retry-After instead of a bare 500 (problem-json.filter.ts): a
 * caller may send the same request again, and on every write route that is safe whether or not the
 * lost request was written (a charge's Idempotency-Key, a contact's freshness rule, a run's claim).
 *
 * Both adapters leave connection-level errors as their drivers raise them (esdb.errors.ts says why), so
 * this reads the drivers' own shapes: PostgreSQL's SQLSTATE codes, Node's socket errors and the `pg`
 * client's and pool's messages for a connection that went, and the EventStoreDB client's errors for a
 * call that ended without a verdict. TypeORM's QueryFailedError carries the driver's error as
 * `driverError`; any other wrapper may carry it as `cause`.
 */
import { isOutcomeUnknown } from './esdb/esdb.errors';

/**
 * PostgreSQL, Appendix A "Error Codes": class 08 (connection exception), 57P01 admin_shutdown, 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up, or in recovery), 53300 too_many_connections.
 * Not 57P04 database_dropped: that one does not pass with time.
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** Node's socket errors for a server that is not listening, went away or cannot be routed to. */
const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * The `pg` client's and pool's own errors for a lost or refused connection (pg/lib/client.js,
 * pg-pool/index.js, 8.x), which carry no code. "Cannot use a pool after calling end" is the service
 * shutting down while a request was still on its way.
 */
const LOST_CONNECTION_MESSAGE =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Cannot use a pool after calling end on the pool|Query read timeout)$/;

export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  if (isOutcomeUnknown(error)) return true;
  const { code, message, driverError, cause } = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNREACHABLE_ERRNO.has(code))) return true;
  if (typeof message === 'string' && LOST_CONNECTION_MESSAGE.test(message)) return true;
  // A connection refused to every address a host name resolves to (localhost: ::1 and 127.0.0.1).
  const { errors } = error as { errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => isStoreUnavailable(inner, depth + 1))) return true;
  return isStoreUnavailable(driverError, depth + 1) || isStoreUnavailable(cause, depth + 1);
}
