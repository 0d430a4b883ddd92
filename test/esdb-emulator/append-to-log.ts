/**
 * One append, as both `Append` and `BatchAppend` run it once the gRPC layer's checks have passed
 * (`proposed-events.ts`). Server source (kurrent-io/KurrentDB v24.10.5): the writer takes requests one
 * at a time (`StorageWriterService.Handle(WritePrepares)`): `CheckCommit` against everything written so
 * far, indexed or only pre-committed (pre-index.ts); on Ok the prepares and `PreCommit`; the answer
 * comes once the index has the write (`RequestManagerBase`), or Timeout after `WriteTimeoutMs`.
 *
 * The timeout runs from the request's arrival, not from the writer's turn: `RequestManagementService.Handle(
 * ClientMessage.WriteEvents)` makes a `WriteEvents` manager with the commit timeout (`WriteTimeoutMs`) and starts it
 * at once; `RequestManagerBase.Start` sets `NextTimeoutTime = DateTime.UtcNow + Timeout` and only then publishes
 * `WritePrepares` to the writer's queue (`Services/RequestManager/Managers/RequestManagerBase.cs`, v24.10.5), so
 * time spent in that queue counts. A write whose manager has answered Timeout is still written when the writer
 * takes it (`StorageWriterService.Handle(WritePrepares)` skips only a request whose cancellation token fired).
 *
 * That token is the gRPC call's (`Streams.Append.cs` passes `context.CancellationToken` to `ClientMessage.WriteEvents`,
 * `Streams.BatchAppend.cs` the call's token to every request of the call; the `WriteEvents` manager hands it to
 * `StorageMessage.WritePrepares`): a write whose call was cut or cancelled before the writer's turn is skipped, never
 * written and never answered (`ended`; the token also fires at the call's deadline, call-token.ts). A node that stops loses its queue as well: on `VNodeState.ShuttingDown` the
 * writer closes, stops its queue (`QueuedHandlerThreadPool.RequestStop`, which dequeues nothing more) and sets
 * `BlockWriter`, under which `CommonHandle` drops every write message unprocessed (`StorageWriterService.cs`,
 * v24.10.5); the calls of a single node go with it (`stop()` in index.ts).
 */
import { checkCommit } from './check-commit';
import type { EmulatorContext } from './context';
import type { ProposedEvent, StoredEvent } from './event-log';
import { contentTypeOf } from './proposed-events';

export interface AppendRequest {
  stream: string;
  /** Server code: −1 no_stream, −2 any, −4 stream_exists, N exact. */
  expected: bigint;
  events: Array<Partial<ProposedEvent> & Pick<ProposedEvent, 'id' | 'data' | 'metadata'> & ProposedId>;
}

/** What the gRPC layer learnt parsing a proposed message's id (event-id.ts); the log keeps only the id. */
export interface ProposedId {
  /** What `Uuid.FromDto` threw for the id, if anything. */
  idError?: string;
  /** `proposedMessage.Id.ToString()`, which the Append path quotes in a MaximumAppendEventSizeExceeded refusal. */
  idDiagnostic?: string;
}

export type AppendOutcome =
  | { kind: 'success'; revision: bigint; position: bigint | undefined }
  | { kind: 'wrong-expected-version'; current: bigint }
  | { kind: 'stream-deleted' }
  | { kind: 'timeout' }
  /** Never written: its call was cut or cancelled before the writer's turn. Nobody hears this answer. */
  | { kind: 'dropped' };

const DROPPED: AppendOutcome = { kind: 'dropped' };
const TIMEOUT: AppendOutcome = { kind: 'timeout' };

/** `ended`: whether the call carrying the write was cut or cancelled (its cancellation token fired). */
export async function appendToLog(ctx: EmulatorContext, request: AppendRequest, ended: () => boolean): Promise<AppendOutcome> {
  const events = request.events.map((e) => ({
    id: e.id.toLowerCase(),
    type: e.type!,
    contentType: contentTypeOf(e.contentType),
    data: e.data,
    metadata: e.metadata,
  }));
  ctx.inFlight.ids += events.length;
  const settled = () => (ctx.inFlight.ids -= events.length);
  // The writer's queue (`holdWrites` keeps requests here, before any decision); the timeout already runs.
  const answer = ctx.writes.pass().then((passes) => {
    if (ended()) {
      settled();
      return DROPPED;
    }
    // Dropped with the stopped leader's queue under a call another node serves: the request manager's
    // timeout is all its caller hears.
    if (!passes) {
      settled();
      return new Promise<never>(() => undefined);
    }
    const decided = write(ctx, request.stream, request.expected, events);
    // A write that times out still lands when the index takes it in; until then it is in flight.
    if (decided) decided.then(settled, settled);
    else settled();
    // `IdempotentNotReady`: dropped without an answer; the request manager's timeout is all the client hears.
    return decided ?? new Promise<never>(() => undefined);
  });
  const outcome = await within(answer, ctx.settings.writeTimeoutMs, TIMEOUT);
  if (outcome === TIMEOUT) ctx.stats.timedOut++;
  return outcome;
}

/**
 * The writer's turn, synchronous from decision to pre-commit as with the server's single writer:
 * undefined for a duplicate it drops, else the answer once the write is indexed.
 */
function write(ctx: EmulatorContext, stream: string, expected: bigint, events: ProposedEvent[]): Promise<AppendOutcome> | undefined {
  const ids = events.map((e) => e.id);
  const decision = checkCommit(ctx.log, ctx.cache, stream, expected, ids, ctx.preIndex);
  switch (decision.kind) {
    case 'wrong-expected-version':
    case 'stream-deleted':
      return Promise.resolve(decision);
    case 'idempotent-not-ready':
      return undefined;
    case 'idempotent':
      return Promise.resolve({ kind: 'success', revision: decision.revision, position: decision.position });
    case 'ok': {
      const current = ctx.preIndex.lastRevision(stream) ?? ctx.log.lastRevision(stream);
      // `SoftUndeleteStream`: writing to a soft-deleted stream re-creates it, pre-committed at once; with no events too.
      const recreates = (ctx.preIndex.softDeleted(stream) ?? ctx.log.isSoftDeleted(stream)) && { stream, softDeleted: false };
      if (events.length === 0)
        return ctx.preIndex.schedule(ctx.delayMs, () => indexEmpty(ctx, stream, current), undefined, recreates || undefined);
      // `IndexWriter.PreCommit`: the ids are in the cache from now on, at the numbers they are written at.
      events.forEach((event, i) => ctx.cache.put(event.id, { stream, revision: current + 1n + BigInt(i) }));
      const last = current + BigInt(events.length);
      return ctx.preIndex.schedule(ctx.delayMs, () => index(ctx, stream, events), { stream, last }, recreates || undefined);
    }
  }
}

/** The index takes the write in: readers and subscriptions see it, and the client gets its answer. */
function index(ctx: EmulatorContext, stream: string, events: ProposedEvent[]): AppendOutcome {
  const written = ctx.log.append(stream, events);
  cacheMetadata(ctx, written.slice(events.length));
  const last = written[events.length - 1];
  return { kind: 'success', revision: last.revision, position: last.position };
}

/** Zero events: the stream's current revision and the empty prepare's position (`StorageChaser` acks it as such). */
function indexEmpty(ctx: EmulatorContext, stream: string, current: bigint): AppendOutcome {
  const { position, undeleted } = ctx.log.writeEmptyTransaction(stream);
  cacheMetadata(ctx, undeleted);
  return { kind: 'success', revision: current, position };
}

/** A soft-deleted stream's re-creation writes `$metadata` after the write (event-log.ts), pre-committed as any event. */
function cacheMetadata(ctx: EmulatorContext, metadata: StoredEvent[]): void {
  for (const event of metadata) ctx.cache.put(event.id, { stream: event.stream, revision: event.revision });
}

/** The request manager's answer: the outcome, or `timeout` once `ms` have passed since the call. */
export async function within<T>(outcome: Promise<T>, ms: number, timeout: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(timeout), ms)));
  try {
    return await Promise.race([outcome, expired]);
  } finally {
    clearTimeout(timer);
  }
}
