/**
 * Whether a parsed export line has the shape its kind promises (export-lines.ts). An export is checked
 * because it may have been edited: a line with a field missing or of another type is a break to report
 * at that line (`rewritten`), not a TypeError that stops `verify-file` before it says where.
 */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isText = (value: unknown) => typeof value === 'string';

const FIELDS: Record<string, Record<string, (value: unknown) => boolean>> = {
  header: { format: isText },
  event: {
    eventNumber: isCount,
    position: isText,
    stream: isText,
    revision: isCount,
    id: isText,
    type: isText,
    data: isObject,
    metadata: isObject,
    eventHash: isText,
    chainHash: (value) => value === null || isText(value),
  },
  seal: { eventsSealed: isCount, position: isText, digest: isText },
  end: { events: isCount, digest: isText },
};

/** What is wrong with the line's shape, or undefined when it is well-formed (its kind may still be unknown). */
export function malformedLine(line: unknown): string | undefined {
  if (!isObject(line)) return 'is not an object';
  const kind = typeof line.kind === 'string' ? line.kind : undefined;
  const fields = kind === undefined ? undefined : FIELDS[kind];
  if (!fields) return undefined;
  const wrong = Object.keys(fields).filter((name) => !fields[name](line[name]));
  return wrong.length ? `is not a well-formed ${kind} line (${wrong.join(', ')} missing or malformed)` : undefined;
}
