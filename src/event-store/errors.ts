import { AppError } from '../errors/app-error';
import type { ExpectedRevision } from './event-store.port';

/** The stream's revision does not match what the writer expected (a concurrent or duplicate writer won). */
export class WrongExpectedVersion extends AppError {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** Last revision in the stream, or `no_stream` when it has none. */
    readonly actual: number | 'no_stream',
  ) {
    super('conflict', 'EVENT_STORE.WRONG_EXPECTED_VERSION', `Stream ${stream}: expected ${expected}, actual ${actual}`, {
      stream,
      expected,
      actual,
    });
  }
}

/**
 * The store refuses every append to this stream: it was deleted for good outside Idem (an EventStoreDB
 * tombstone, or `stream_exists` on a soft-deleted stream; the port itself has no deletes). Reads of it
 * answer empty, as for a stream never written, so only an append tells the two apart.
 */
export class StreamDeleted extends AppError {
  constructor(readonly stream: string) {
    super('conflict', 'EVENT_STORE.STREAM_DELETED', `Stream ${stream} was deleted from the event store: nothing can be appended to it`, {
      stream,
    });
  }
}

/** An append the store refuses before writing anything: bad stream name, event type, id or size. */
export class InvalidAppend extends AppError {
  constructor(code: 'STREAM_NAME' | 'EVENT_TYPE' | 'EVENT_ID' | 'EVENT_DATA' | 'EVENT_TOO_LARGE' | 'EXPECTED_REVISION', message: string) {
    super(code === 'EVENT_TOO_LARGE' ? 'payload_too_large' : 'validation', `EVENT_STORE.INVALID_${code}`, message);
  }
}
