/**
 * Duplicates of a write still in flight, through the real client on both append paths. Server source
 * (kurrent-io/KurrentDB v24.10.5): `IndexWriter.CheckCommit` answers `IdempotentNotReady` only after
 * every id of the request has matched (the cache path for any/stream_exists, revision by revision for
 * an exact expectation) and the matched events are pre-committed but not yet indexed;
 * `StorageWriterService.ActOnCommitCheckFailure` then drops the request unanswered. Any other request
 * that shares an id is decided as usual against the pre-committed state (pre-index.ts): a first id not
 * cached is written, a later miss is CorruptedIdempotency (WrongExpectedVersion), and the current
 * revision includes the write in flight (`_streamVersions`).
 */
import { randomUUID } from 'node:crypto';
import { WrongExpectedVersionError, type AppendExpectedRevision } from '@eventstore/db-client';
import { APPEND_PATHS, connectedEmulator, event, failureOf, readStream, streamName, until } from './fidelity-helpers';

describe.each(APPEND_PATHS)('a duplicate of a write in flight over $path', ({ batchAppend }) => {
  // The index lags 300 ms behind the writer; the budget (1 s) outlasts it, so only dropped requests time out.
  const esdb = connectedEmulator({ batchAppend, writeTimeoutMs: 1_000 });
  let s: string;
  let a: string;
  let original: Promise<unknown>;
  const append = (ids: string[], expectedRevision: AppendExpectedRevision) =>
    esdb.client.appendToStream(
      s,
      ids.map((id) => event(id)),
      { expectedRevision },
    );
  const ids = async () => (await readStream(esdb.client, s)).map((r) => r.event!.id);

  /** `s` holds one event (revision 0); event `a` is on its way in at revision 1, not indexed yet. */
  beforeEach(async () => {
    s = streamName();
    a = randomUUID();
    await append([randomUUID()], 'no_stream');
    esdb.emulator.setDelay(300);
    original = append([a], 'any');
    await until(() => esdb.emulator.writesInFlight() > 0);
    esdb.emulator.setDelay(0);
  });

  afterEach(async () => {
    await original;
  });

  it('writes a request whose first id is not cached, after the write in flight, duplicating the id', async () => {
    const b = randomUUID();
    expect((await append([b, a], 'any')).nextExpectedRevision).toBe(3n);
    expect((await ids()).slice(1)).toEqual([a, b, a]);
  });

  it('refuses an exact expectation ahead of the stream with the revision the write in flight reached', async () => {
    const error = await failureOf(append([a], 5n));
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error).toMatchObject({ expectedVersion: 5n, actualVersion: 1n });
  });

  it('refuses a request whose first id matches and a later one does not, as corrupted idempotency', async () => {
    expect(await failureOf(append([a, randomUUID()], 'any'))).toMatchObject({ expectedVersion: 'any', actualVersion: 1n });
  });

  it.each<[string, AppendExpectedRevision]>([
    ['any', 'any'],
    ['stream_exists', 'stream_exists'],
    ['the revision before it', 0n],
  ])('drops a request with %s whose ids all match the write in flight: the client times out', async (_kind, expected) => {
    const error = await failureOf(append([a], expected));
    expect(error.constructor.name).toBe(batchAppend ? 'DeadlineExceededError' : 'TimeoutError');
    await original;
    expect((await ids()).slice(1)).toEqual([a]);
  });
});
