/**
 * One append, as both `Append` and `BatchAppend` run it once the gRPC layer's checks have passed
 * (`proposed-events.ts`): the write under the server's commit timeout, then `CheckCommit`.
 */
import { checkCommit } from './check-commit';
import { pause, type EmulatorContext } from './context';
import type { ProposedEvent } from './event-log';
import { contentTypeOf } from './proposed-events';

export interface AppendRequest {
  stream: string;
  /** Server code: −1 no_stream, −2 any, −4 stream_exists, N exact. */
  expected: bigint;
  events: Array<Partial<ProposedEvent> & Pick<ProposedEvent, 'id' | 'data' | 'metadata'>>;
  /** Time the client still allows (BatchAppend's deadline); the server caps it at WriteTimeoutMs. */
  budgetMs?: number;
}

export type AppendOutcome =
  | { kind: 'success'; revision: bigint; position: bigint | undefined }
  | { kind: 'wrong-expected-version'; current: bigint }
  | { kind: 'stream-deleted' }
  | { kind: 'timeout' };

export async function appendToLog(ctx: EmulatorContext, request: AppendRequest): Promise<AppendOutcome> {
  const budget = Math.min(request.budgetMs ?? Infinity, ctx.settings.writeTimeoutMs);
  if (budget <= 0) return { kind: 'timeout' };
  const ids = request.events.map((e) => e.id.toLowerCase());
  if (ids.some((id) => ctx.inFlight.get(id) === request.stream)) {
    // `CommitDecision.IdempotentNotReady`: the original is still on its way; the duplicate gets no answer.
    await pause(budget);
    ctx.stats.timedOut++;
    return { kind: 'timeout' };
  }
  for (const id of ids) ctx.inFlight.set(id, request.stream);
  const events = request.events.map((e) => ({ ...e, type: e.type!, contentType: contentTypeOf(e.contentType) }));
  const written = (async () => {
    await pause(ctx.delayMs);
    await ctx.writes.pass();
    return commit(ctx, request.stream, request.expected, events);
  })().finally(() => ids.forEach((id) => ctx.inFlight.delete(id)));
  if (ctx.delayMs < budget) return written;
  // Prepare/commit timeout: the client hears Timeout, and the write still lands when it is done.
  await pause(budget);
  ctx.stats.timedOut++;
  return { kind: 'timeout' };
}

/** Synchronous from decision to write: nothing else can run in between, as with the server's single writer. */
function commit(ctx: EmulatorContext, stream: string, expected: bigint, events: ProposedEvent[]): AppendOutcome {
  const ids = events.map((e) => e.id.toLowerCase());
  const decision = checkCommit(ctx.log, ctx.cache, stream, expected, ids);
  switch (decision.kind) {
    case 'wrong-expected-version':
    case 'stream-deleted':
      return decision;
    case 'idempotent':
      return { kind: 'success', revision: decision.revision, position: decision.position };
    case 'ok': {
      if (events.length === 0)
        return { kind: 'success', revision: ctx.log.lastRevision(stream), position: ctx.log.writeEmptyTransaction() };
      const written = ctx.log.append(stream, events);
      for (const event of written) ctx.cache.put(event.id, { stream: event.stream, revision: event.revision });
      const last = written.filter((e) => e.stream === stream).at(-1)!;
      return { kind: 'success', revision: last.revision, position: last.position };
    }
  }
}
