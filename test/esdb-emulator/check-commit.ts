/**
 * `IndexWriter.CheckCommit`, the server's single decision on every write — appends, and deletes and
 * tombstones with one fresh id (`StorageWriterService.WriteDelete`) — in the same evaluation order.
 * Server source: `src/EventStore.Core/Services/Storage/ReaderIndex/IndexWriter.cs`, `CheckCommit`
 * (v24.10.4 = v24.10.5 here). Its fast path for new streams, `CheckCommitForNewStream`, is never taken on
 * the default log format: `StorageWriterService` passes `streamMightExist` from `_streamNameIndex.GetOrReserve`,
 * which `LogV2StreamNameIndex` answers `true` for every name (`src/EventStore.Core/LogV2/LogV2StreamNameIndex.cs`).
 * `expected` uses the server's codes: −1 no_stream, −2 any, −4 stream_exists, N ≥ 0 exact.
 */
import type { CommittedEventIdCache } from './id-cache';
import { ANY, LONG_MAX, NO_STREAM, STREAM_EXISTS, type EventLog } from './event-log';

export type CommitDecision =
  | { kind: 'ok' }
  | { kind: 'wrong-expected-version'; current: bigint }
  /**
   * A recognised duplicate: the original write's last revision; its position only when a read of that
   * event succeeds (`_indexReader.ReadEvent`, which honours `$tb`, `$maxCount`, `$maxAge`), else
   * undefined, which the gRPC layer sends as `no_position`.
   */
  | { kind: 'idempotent'; revision: bigint; position: bigint | undefined }
  /**
   * Every id matched, but the matched events are pre-committed and not yet indexed
   * (`_indexReader.GetStreamLastEventNumber(streamId) < endEventNumber`, both dedupe paths):
   * `StorageWriterService.ActOnCommitCheckFailure` drops the write without a reply.
   */
  | { kind: 'idempotent-not-ready' }
  | { kind: 'stream-deleted' };

/**
 * What pre-committed writes changed (pre-index.ts): a stream's last event number while it is ahead of the index,
 * and its soft deletion (`IndexWriter.IsSoftDeleted` reads `_streamRawMetas`, which `PreCommit` fills).
 */
export interface PreCommitted {
  lastRevision(stream: string): bigint | undefined;
  softDeleted(stream: string): boolean | undefined;
}

const NOTHING_PRE_COMMITTED: PreCommitted = { lastRevision: () => undefined, softDeleted: () => undefined };

const OK: CommitDecision = { kind: 'ok' };

export function checkCommit(
  log: EventLog,
  cache: CommittedEventIdCache,
  stream: string,
  expected: bigint,
  ids: string[],
  preCommitted: PreCommitted = NOTHING_PRE_COMMITTED,
): CommitDecision {
  // `IndexWriter.GetStreamLastEventNumber`: `_streamVersions` (pre-committed writes) before the index; −1 for none.
  const lastOf = (name: string) => preCommitted.lastRevision(name) ?? log.lastRevision(name);
  const current = lastOf(stream);
  if (current === LONG_MAX) return { kind: 'stream-deleted' };
  const softDeleted = preCommitted.softDeleted(stream) ?? log.isSoftDeleted(stream);
  // stream_exists: a soft-deleted stream does not exist; one without events exists if its metastream has any.
  if (expected === STREAM_EXISTS && softDeleted) return { kind: 'stream-deleted' };
  if (expected === STREAM_EXISTS && current < 0n && lastOf(`$$${stream}`) < 0n) return wrong(current);
  if (expected === ANY || expected === STREAM_EXISTS) return checkCachedIds(log, cache, stream, ids, current);
  if (expected < current) {
    const decision = checkWrittenIds(log, cache, stream, expected, ids, current);
    if (decision === 'first-differs') return expected === NO_STREAM && softDeleted ? OK : wrong(current);
    return decision;
  }
  // Ahead of the stream; or exactly current: appended, with no duplicate check at all.
  return expected > current ? wrong(current) : OK;
}

function wrong(current: bigint): CommitDecision {
  return { kind: 'wrong-expected-version', current };
}

/** All ids matched up to `revision`: answered only once the index holds it (`isReplicated`). */
function idempotent(log: EventLog, stream: string, revision: bigint): CommitDecision {
  if (log.lastRevision(stream) < revision) return { kind: 'idempotent-not-ready' };
  return { kind: 'idempotent', revision, position: log.readableEvent(stream, revision)?.position };
}

/** any / stream_exists: the first id decides; a later miss is CorruptedIdempotency, reported as WEV. */
function checkCachedIds(log: EventLog, cache: CommittedEventIdCache, stream: string, ids: string[], current: bigint): CommitDecision {
  let last: bigint | undefined;
  for (const [i, id] of ids.entries()) {
    const cached = cache.get(id);
    if (!cached || cached.stream !== stream) return i === 0 ? OK : wrong(current);
    last = cached.revision;
  }
  return last === undefined ? OK : idempotent(log, stream, last);
}

/**
 * An exact expectation behind the stream: revision N+i must hold the i-th id, by the cache or by the
 * stored record (`ReadPrepare`, which ignores stream metadata); a prefix of the original write matches
 * too. No events at all is "no data in transaction": WrongExpectedVersion.
 */
function checkWrittenIds(
  log: EventLog,
  cache: CommittedEventIdCache,
  stream: string,
  expected: bigint,
  ids: string[],
  current: bigint,
): CommitDecision | 'first-differs' {
  if (ids.length === 0) return wrong(current);
  let revision = expected;
  for (const [i, id] of ids.entries()) {
    revision += 1n;
    const cached = cache.get(id);
    if (cached?.stream === stream && cached.revision === revision) continue;
    if (log.eventAt(stream, revision)?.id === id) continue;
    return i === 0 ? 'first-differs' : wrong(current);
  }
  return idempotent(log, stream, revision);
}
