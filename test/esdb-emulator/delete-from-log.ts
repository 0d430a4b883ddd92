/**
 * One delete or tombstone once the gRPC layer has passed it: the same writer, queue and request manager as an
 * append (append-to-log.ts). Server source (kurrent-io/KurrentDB v24.10.5):
 * `RequestManagementService.Handle(ClientMessage.DeleteStream)` starts a `DeleteStream` manager with the commit
 * timeout (`WriteTimeoutMs`) at arrival; `StorageWriterService.Handle(WriteDelete)` takes it in its turn behind
 * every write queued before it and runs `IndexWriter.CheckCommit` with one fresh event id against everything
 * written so far, pre-committed included (so `any` always holds, `no_stream` holds on a soft-deleted stream,
 * `stream_exists` on a soft-deleted stream is StreamDeleted); a soft delete of a stream whose
 * `GetStreamLastEventNumber` and its metastream's are both below 0 is WrongExpectedVersion even with `any`. On Ok it
 * writes `$streamDeleted` at `long.MaxValue` (hard) or `{"$tb": long.MaxValue}` in the metastream (soft) and
 * pre-commits it; the answer comes once the index has it, in log order. Like a write, a delete whose call was cut or
 * cancelled before the writer's turn is skipped (`Handle(WriteDelete)` checks the call's `CancellationToken` first,
 * passed on by `Streams.Delete.cs` `DeleteInternal`), and one held when the node stops is dropped (append-to-log.ts).
 */
import { randomUUID } from 'node:crypto';
import { within } from './append-to-log';
import { checkCommit } from './check-commit';
import type { EmulatorContext } from './context';
import { LONG_MAX } from './event-log';

export interface DeleteRequest {
  stream: string;
  /** Server code: −1 no_stream, −2 any, −4 stream_exists, N exact. */
  expected: bigint;
  /** Tombstone (hard delete) rather than a soft delete. */
  hard: boolean;
}

export type DeleteOutcome =
  | { kind: 'deleted'; position: bigint }
  | { kind: 'wrong-expected-version'; current: bigint }
  | { kind: 'stream-deleted' }
  | { kind: 'timeout' }
  /** Never written: its call was cut or cancelled before the writer's turn. Nobody hears this answer. */
  | { kind: 'dropped' };

const DROPPED: DeleteOutcome = { kind: 'dropped' };
const TIMEOUT: DeleteOutcome = { kind: 'timeout' };

/** `ended`: whether the call was cut or cancelled (its cancellation token fired). */
export async function deleteFromLog(ctx: EmulatorContext, request: DeleteRequest, ended: () => boolean): Promise<DeleteOutcome> {
  const answer = ctx.writes.pass().then((passes) => {
    if (ended()) return DROPPED;
    // Dropped with a stopped leader's queue under a call another node serves: its request manager times out.
    return passes ? write(ctx, request) : new Promise<never>(() => undefined);
  });
  const outcome = await within(answer, ctx.settings.writeTimeoutMs, TIMEOUT);
  if (outcome === TIMEOUT) ctx.stats.timedOut++;
  return outcome;
}

/** The writer's turn, synchronous from decision to pre-commit. */
function write(ctx: EmulatorContext, { stream, expected, hard }: DeleteRequest): Promise<DeleteOutcome> {
  const decision = checkCommit(ctx.log, ctx.cache, stream, expected, [randomUUID()], ctx.preIndex);
  if (decision.kind === 'stream-deleted' || decision.kind === 'wrong-expected-version') return Promise.resolve(decision);
  const last = (s: string) => ctx.preIndex.lastRevision(s) ?? ctx.log.lastRevision(s);
  if (hard) {
    const tombstone = () => ({ kind: 'deleted' as const, position: ctx.log.tombstone(stream).position });
    return ctx.preIndex.schedule(ctx.delayMs, tombstone, { stream, last: LONG_MAX });
  }
  const metastream = `$$${stream}`;
  if (last(stream) < 0n && last(metastream) < 0n) return Promise.resolve({ kind: 'wrong-expected-version', current: -1n });
  const softDelete = () => ({ kind: 'deleted' as const, position: ctx.log.softDelete(stream).position });
  return ctx.preIndex.schedule(ctx.delayMs, softDelete, { stream: metastream, last: last(metastream) + 1n }, { stream, softDeleted: true });
}
