/**
 * Events too big for one log record. Server source (kurrent-io/KurrentDB v24.10.5): `Data/Event.cs`
 * refuses `SizeOnDisk` (data + metadata + 2 × type length) above `TFConsts.EffectiveMaxLogRecordSize`
 * ("Record is too big."); `ClusterVNodeStartup` lets the Streams service receive messages up to that
 * size. BatchAppend builds each event before any size check (`Streams.BatchAppend.cs`
 * `FromProposedMessage`), so a long type that counts twice on disk reaches the check there; Append
 * checks sizes first (`Streams.Append.cs`), so its answer is the append size limit.
 */
import { MaxAppendSizeExceededError, binaryEvent } from '@eventstore/db-client';
import { APPEND_PATHS, connectedEmulator, failureOf, readStream, streamName } from './fidelity-helpers';
import { EFFECTIVE_MAX_LOG_RECORD_SIZE, checkBatchChunk } from './proposed-events';

/** Its message fits under the limit (16.4 MB); on disk it is 16.8 MB, over it. */
const tooBigOnDisk = () => binaryEvent({ type: 'T'.repeat(400_000), data: new Uint8Array(16_000_000) });

describe('the BatchAppend event checks', () => {
  it("refuse an event over EffectiveMaxLogRecordSize with the Event constructor's message", () => {
    const e = tooBigOnDisk();
    const proposed = { id: e.id, type: e.type, contentType: e.contentType, data: e.data, metadata: new Uint8Array() };
    const settings = {
      maxAppendSize: 1_048_576,
      maxAppendEventSize: 2_147_483_647,
      writeTimeoutMs: 2_000,
      batchAppend: true,
      serverVersion: '24.10.5',
    };
    expect(checkBatchChunk([proposed], 0, settings).refusal).toEqual({
      kind: 'invalid-event',
      message: "Record is too big. (Parameter 'data')",
    });
  });
});

describe.each(APPEND_PATHS)('an event too big for a log record over $path', ({ path, batchAppend }) => {
  // The server's write timeout (2 s by default) runs from the request's options until its last chunk
  // (Streams.BatchAppend.cs), and the emulator's does too: on a loaded machine the 16 MB chunk can come
  // after it, and the answer is then a Timeout (DeadlineExceededError, message "") rather than the size
  // refusal this spec is about. A longer timeout keeps the spec about the size check.
  const esdb = connectedEmulator({ batchAppend, writeTimeoutMs: 30_000 });

  it(
    path === 'BatchAppend' ? 'is refused in-band as a bad request: "Record is too big."' : 'is refused by the append size limit first',
    async () => {
      expect(16_000_000 + 2 * 400_000).toBeGreaterThan(EFFECTIVE_MAX_LOG_RECORD_SIZE);
      const stream = streamName();
      const error = await failureOf(esdb.client.appendToStream(stream, tooBigOnDisk()));
      // The 6.x client does not surface a BadRequest's message (checked above).
      if (batchAppend) expect(error.message).toBe('Could not recognize BadRequest');
      else expect(error).toBeInstanceOf(MaxAppendSizeExceededError);
      expect(await failureOf(readStream(esdb.client, stream))).toMatchObject({ type: 'stream-not-found' });
    },
  );
});
