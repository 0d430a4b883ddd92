/**
 * Checks every store runs before it writes, so a bad append is refused whole on either adapter.
 * The size rule is EventStoreDB's MaxAppendSize: data + metadata + 2 × type length, in bytes (esdb.md §1.2).
 */
import { InvalidAppend } from './errors';
import type { EventToAppend, ExpectedRevision } from './event-store.port';
import { assertStorableDocuments } from './storable-documents';

export const DEFAULT_MAX_APPEND_BYTES = 1_048_576;
const MAX_NAME_LENGTH = 256;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export function assertValidName(kind: 'STREAM_NAME' | 'EVENT_TYPE', value: unknown): asserts value is string {
  const label = kind === 'STREAM_NAME' ? 'stream name' : 'event type';
  if (typeof value !== 'string' || value.length === 0) throw new InvalidAppend(kind, `The ${label} must be a non-empty string`);
  if (value.length > MAX_NAME_LENGTH) throw new InvalidAppend(kind, `The ${label} is longer than ${MAX_NAME_LENGTH} characters`);
  if (CONTROL_CHARS.test(value)) throw new InvalidAppend(kind, `The ${label} contains control characters`);
  if (value.startsWith('$'))
    throw new InvalidAppend(kind, `The ${label} "${value}" is reserved: names starting with $ belong to the store`);
}

export function assertValidExpectation(expected: ExpectedRevision): void {
  if (expected === 'any' || expected === 'no_stream' || expected === 'stream_exists') return;
  if (!Number.isSafeInteger(expected) || expected < 0) {
    throw new InvalidAppend(
      'EXPECTED_REVISION',
      `Expected revision must be any, no_stream, stream_exists or an integer ≥ 0, got ${String(expected)}`,
    );
  }
}

/** Validates and serialises the events once; the adapters write the returned JSON strings. */
export function prepareAppend(
  stream: string,
  events: EventToAppend[],
  expected: ExpectedRevision,
  maxAppendBytes: number,
): { data: string[]; metadata: string[] } {
  assertValidName('STREAM_NAME', stream);
  assertValidExpectation(expected);
  const data: string[] = [];
  const metadata: string[] = [];
  let size = 0;
  for (const event of events) {
    assertValidName('EVENT_TYPE', event.type);
    if (typeof event.id !== 'string' || !UUID.test(event.id) || event.id === NIL_UUID) {
      throw new InvalidAppend('EVENT_ID', `Event id "${String(event.id)}" is not a non-nil UUID`);
    }
    const json = JSON.stringify(event.data ?? {});
    const meta = JSON.stringify(event.metadata ?? {});
    size += countedBytes(json, meta, event.type);
    data.push(json);
    metadata.push(meta);
  }
  assertStorableDocuments(data);
  assertStorableDocuments(metadata);
  if (events.length > 1) assertDistinctIds(events);
  if (size > maxAppendBytes) {
    throw new InvalidAppend('EVENT_TOO_LARGE', `The append is ${size} bytes; the limit is ${maxAppendBytes}`);
  }
  return { data, metadata };
}

/** What one event counts towards an append's size (EventStoreDB's MaxAppendSize rule). */
export function appendedBytes(event: EventToAppend): number {
  return countedBytes(JSON.stringify(event.data ?? {}), JSON.stringify(event.metadata ?? {}), event.type);
}

const countedBytes = (data: string, metadata: string, type: string) =>
  Buffer.byteLength(data) + Buffer.byteLength(metadata) + 2 * Buffer.byteLength(type);

function assertDistinctIds(events: EventToAppend[]): void {
  const ids = new Set<string>();
  for (const event of events) {
    const id = event.id.toLowerCase();
    if (ids.has(id)) throw new InvalidAppend('EVENT_ID', `Event id ${id} appears twice in one append`);
    ids.add(id);
  }
}

/** `order-481` → `order`; a stream without a dash is its own category. */
export function streamCategory(stream: string): string {
  const dash = stream.indexOf('-');
  return dash === -1 ? stream : stream.slice(0, dash);
}
