/**
 * What went wrong with an outgoing request, in words a log line or a recorded reason can carry.
 * fetch reports a refused connection as "fetch failed" with the reason in `cause`. Read by shape, not
 * `instanceof Error`: fetch's errors may come from another realm (jest's sandbox, for one).
 */
export function describeFetchFailure(error: unknown): string {
  const { message, cause } = (error ?? {}) as { message?: unknown; cause?: { code?: unknown; message?: unknown } };
  if (typeof message !== 'string') return String(error);
  const reason = cause?.code ?? cause?.message;
  return reason === undefined ? message : `${message}: ${String(reason)}`;
}
