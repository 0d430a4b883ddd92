/**
 * `IndexWriter.CheckCommit`, the server's single decision on every write (esdb.md §1.2 and §2.1),
 * in the same evaluation order. `expected` uses the server's codes: −1 no_stream, −2 any,
 * −4 stream_exists, N ≥ 0 exact.
 */
import type { CommittedEventIdCache } from './id-cache';
import { ANY, LONG_MAX, NO_STREAM, STREAM_EXISTS, type EventLog } from './event-log';

export type CommitDecision =
  | { kind: 'ok' }
  | { kind: 'wrong-expected-version'; current: bigint }
  /** A recognised duplicate: the original write's last revision and position, nothing written. */
  | { kind: 'idempotent'; revision: bigint; position: bigint | undefined }
  | { kind: 'stream-deleted' };

const OK: CommitDecision = { kind: 'ok' };

export function checkCommit(log: EventLog, cache: CommittedEventIdCache, stream: string, expected: bigint, ids: string[]): CommitDecision {
  // 1. A name the stream index has never seen: only `any` and `no_stream` hold.
  if (!log.known(stream)) return expected === ANY || expected === NO_STREAM ? OK : wrong(-1n);
  const current = log.lastRevision(stream);
  // 2. Tombstoned: refused whatever the expectation.
  if (current === LONG_MAX) return { kind: 'stream-deleted' };
  const softDeleted = log.isSoftDeleted(stream);
  // 3. stream_exists: a soft-deleted stream does not exist; a stream with only metadata does.
  if (expected === STREAM_EXISTS && softDeleted) return { kind: 'stream-deleted' };
  // 4. any / stream_exists: best-effort dedupe against the in-memory cache.
  if (expected === ANY || expected === STREAM_EXISTS) return checkCachedIds(cache, stream, ids, current);
  // 5. An exact expectation behind the stream: durable dedupe against the stored events.
  if (expected < current) {
    const decision = checkStoredIds(log, stream, expected, ids, current);
    if (decision === 'first-differs') return expected === NO_STREAM && softDeleted ? OK : wrong(current);
    return decision;
  }
  // 6. Ahead of the stream. 7. Exactly current: appended, with no duplicate check at all.
  return expected > current ? wrong(current) : OK;
}

function wrong(current: bigint): CommitDecision {
  return { kind: 'wrong-expected-version', current };
}

/** Path A (§2.1): the first id decides; a later miss is CorruptedIdempotency, reported as WEV. */
function checkCachedIds(cache: CommittedEventIdCache, stream: string, ids: string[], current: bigint): CommitDecision {
  let last: { revision: bigint; position: bigint } | undefined;
  for (const [i, id] of ids.entries()) {
    const cached = cache.get(id);
    if (!cached || cached.stream !== stream) return i === 0 ? OK : wrong(current);
    last = cached;
  }
  return last ? { kind: 'idempotent', revision: last.revision, position: last.position } : OK;
}

/** Path B (§2.1): revision N+i must hold the i-th id; a prefix of the original write matches too. */
function checkStoredIds(log: EventLog, stream: string, expected: bigint, ids: string[], current: bigint): CommitDecision | 'first-differs' {
  let revision = expected;
  let position: bigint | undefined;
  for (const [i, id] of ids.entries()) {
    revision += 1n;
    const stored = log.eventAt(stream, revision);
    if (stored?.id !== id) return i === 0 ? 'first-differs' : wrong(current);
    position = stored.position;
  }
  return { kind: 'idempotent', revision, position };
}
