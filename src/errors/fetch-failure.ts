/**
 * What went wrong with an outgoing request, in words a log line or a recorded reason can carry.
 * fetch reports a refused connection as "fetch failed" with the reason in `cause`. Read by shape, not
 * `instanceof Error`: fetch's errors may come from another realm (jest's sandbox, for one).
 */
export function describeFetchFailure(error: unknown): string {
  const { message, cause } = (error ?? {}) as { message?: unknown; cause?: { code?: unknown; message?: unknown } };
  if (typeof message !== 'string') return String(error);
  // undici's own codes (UND_ERR_SOCKET, UND_ERR_HEADERS_TIMEOUT…) mean little to the support staff who
  // read a run's reason; its message says it in words ("other side closed"), so both are given.
  if (typeof cause?.code === 'string' && cause.code.startsWith('UND_ERR_') && typeof cause.message === 'string' && cause.message)
    return `${message}: ${cause.message} (${cause.code})`;
  const reason = cause?.code ?? cause?.message;
  return reason === undefined ? message : `${message}: ${String(reason)}`;
}
