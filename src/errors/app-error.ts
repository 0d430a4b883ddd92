/**
 * Broken rules throw an AppError; the one problem+json filter maps `kind` to an HTTP status and
 * `code` (stable, e.g. `ORDER.CHARGE_MISMATCH`) into the body. Business failures are events, not errors.
 */
export type AppErrorKind =
  | 'validation' // 400: the request itself is malformed
  | 'unauthenticated' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409: a concurrent writer changed the state
  | 'unprocessable' // 422: well-formed but contradicts what is recorded
  | 'payload_too_large' // 413
  | 'unavailable'; // 503

export interface FieldProblem {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly kind: AppErrorKind,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> & { errors?: FieldProblem[] } = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}
