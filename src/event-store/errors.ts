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

/** An append the store refuses before writing anything: bad stream name, event type, id or size. */
export class InvalidAppend extends AppError {
  constructor(code: 'STREAM_NAME' | 'EVENT_TYPE' | 'EVENT_ID' | 'EVENT_DATA' | 'EVENT_TOO_LARGE' | 'EXPECTED_REVISION', message: string) {
    super(code === 'EVENT_TOO_LARGE' ? 'payload_too_large' : 'validation', `EVENT_STORE.INVALID_${code}`, message);
  }
}
