/**
 * Every route with a body takes a JSON object. A body that is JSON but no object (an array, a string,
 * a number, true, null) gets this one answer, naming the shape expected: checked field by field instead,
 * `[{"source":"crm"}]` was told "source must be a string", which is true of no field the caller sent.
 */
import { AppError } from './app-error';

export const isJsonObject = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body);

/** A 400 REQUEST.INVALID on the field `body`; `shape` names the fields expected, e.g. `{source, records}`. */
export const notAJsonObject = (shape: string) =>
  new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', {
    errors: [{ field: 'body', message: `the body must be a JSON object ${shape}` }],
  });

export function assertJsonObjectBody(body: unknown, shape: string): asserts body is Record<string, unknown> {
  if (!isJsonObject(body)) throw notAJsonObject(shape);
}
