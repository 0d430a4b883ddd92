/**
 * The query of GET /v1/audit/events: `after`, an opaque checkpoint (exclusive; omitted: from the
 * start), and `limit`, 1–1000 (default 100). Anything else is a 400 naming the field.
 */
import { isCheckpoint, type Checkpoint } from '../../../src/event-store/checkpoint';
import { AppError, type FieldProblem } from '../../../src/errors/app-error';

export const MAX_PAGE = 1000;
export const DEFAULT_PAGE = 100;

export interface HistoryPageQuery {
  after: Checkpoint | undefined;
  limit: number;
}

export function parseHistoryPageQuery(after: unknown, limit: unknown): HistoryPageQuery {
  const errors: FieldProblem[] = [];
  if (after !== undefined && !isCheckpoint(after))
    errors.push({ field: 'after', message: 'after must be a checkpoint from an earlier page (e.g. "123/456")' });
  if (limit !== undefined && (typeof limit !== 'string' || !/^\d{1,4}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_PAGE))
    errors.push({ field: 'limit', message: `limit must be an integer from 1 to ${MAX_PAGE}` });
  if (errors.length) throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', { errors });
  return { after: after as Checkpoint | undefined, limit: limit === undefined ? DEFAULT_PAGE : Number(limit) };
}
