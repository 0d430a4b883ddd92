import { AppError } from '../../../src/errors/app-error';

/**
 * A stream that neither the chain nor the store holds an event of was never written: a mistyped
 * name. Answering `ok` with nothing checked would read as a pass to the auditor who mistyped it. A
 * stream removed after it was chained still has its chain entries, and is reported `missing` instead.
 */
export const streamNotFound = (stream: string) =>
  new AppError('not_found', 'STREAM.NOT_FOUND', `The history holds no stream ${stream}: nothing to verify`, { stream });
