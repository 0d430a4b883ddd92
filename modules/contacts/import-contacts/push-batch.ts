/**
 * One push batch, from claim to answers: the run is claimed (or taken over) before any contact is
 * written, and a request that may not write is refused or replayed having written nothing
 * (push-claim.decision.ts). Requests with the same run id in this process go one after the other, so
 * a retry sent while its first attempt still runs here gets the first one's answers instead of a 409;
 * across processes the claim's append decides.
 */
import { randomUUID } from 'node:crypto';
import { appendLinked, appendLinkedInChunks } from '../../../src/command-handling/append-linked';
import { toEventToAppend } from '../../../src/command-handling/event-to-append';
import type { CommandContext } from '../../../src/command-handling/handle-command';
import { AppError } from '../../../src/errors/app-error';
import { WrongExpectedVersion } from '../../../src/event-store/errors';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { importStream, type ImportEvent } from '../contact.events';
import { importItems } from './import-records';
import type { ImportRequest } from './import-request';
import { decideClaim } from './push-claim.decision';
import { foldPushRun, pushClaim, pushRecordEvents, toAnswer, type PushRun, type RecordAnswer } from './push-run';

export interface PushAnswers {
  answers: RecordAnswer[];
  replayed: boolean;
}

const inFlightHere = new Map<string, Promise<unknown>>();

/** `keyed`: the run id comes from an Idempotency-Key and may be recorded already; otherwise it is new. */
export function pushBatch(
  store: EventStore,
  request: ImportRequest,
  { runId, keyed }: { runId: string; keyed: boolean },
  metadata: CommandContext['metadata'],
): Promise<PushAnswers> {
  const before = inFlightHere.get(runId) ?? Promise.resolve();
  const mine = before.then(() => claimAndImport(store, request, { runId, keyed }, metadata));
  const settled = mine.catch(() => undefined);
  inFlightHere.set(runId, settled);
  void settled.then(() => inFlightHere.get(runId) === settled && inFlightHere.delete(runId));
  return mine;
}

/** A lost claim is read again once: the winner's claim then decides (it never frees the key again). */
const MAX_CLAIM_ATTEMPTS = 2;

async function claimAndImport(
  store: EventStore,
  request: ImportRequest,
  { runId, keyed }: { runId: string; keyed: boolean },
  metadata: CommandContext['metadata'],
): Promise<PushAnswers> {
  const stream = importStream(runId);
  for (let attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt++) {
    const run = foldPushRun(keyed ? await store.readStream(stream) : []);
    const decision = decideClaim(run, request, new Date());
    if (decision.kind === 'replay') return { answers: decision.answers, replayed: true };
    if (decision.kind === 'reused') throw reused();
    if (decision.kind === 'in_progress') throw inProgress();
    // Ids of this request's own: two requests racing with one body must not be taken for one append.
    const write = new RunWriter(store, stream, metadata, randomUUID(), keyed);
    const claim: ImportEvent =
      decision.kind === 'claim'
        ? pushClaim(runId, request.source, metadata.actor.role, request.fingerprint, {
            idempotencyKey: keyed,
            records: request.items.length,
          })
        : { type: 'ImportRunResumed', data: { runId, by: metadata.actor.role } };
    if (!(await write.claim(claim, decision.kind === 'claim' ? 'no_stream' : decision.revision))) continue;
    return { answers: await importUnanswered(write, request, runId, run, metadata), replayed: false };
  }
  throw inProgress();
}

/** Imports the records the run has no answer for yet (all of them, unless taken over) and records the answers. */
async function importUnanswered(
  write: RunWriter,
  request: ImportRequest,
  runId: string,
  run: PushRun,
  metadata: CommandContext['metadata'],
): Promise<RecordAnswer[]> {
  const results = await importItems(
    write.store,
    request.source,
    runId,
    request.items.filter((item) => !run.answers.has(item.seq)),
    metadata,
  );
  const fresh = new Map(results.map((result) => [result.seq, toAnswer(result)]));
  const answers = request.items.map((item) => run.answers.get(item.seq) ?? fresh.get(item.seq)!);
  await write.records(pushRecordEvents(runId, request.source, results, answers));
  return answers;
}

/** Appends a push run's events after the claim, each at the revision the one before left. */
class RunWriter {
  private revision = -1;

  constructor(
    readonly store: EventStore,
    private readonly stream: string,
    private readonly metadata: CommandContext['metadata'],
    private readonly attempt: string,
    private readonly keyed: boolean,
  ) {}

  /** False when another request claimed (or took over) the run first. */
  async claim(event: ImportEvent, expected: number | 'no_stream'): Promise<boolean> {
    try {
      const { result } = await appendLinked(this.store, this.stream, [this.toAppend(event, 'claim')], expected);
      this.revision = result.nextRevision;
      return true;
    } catch (error) {
      if (error instanceof WrongExpectedVersion) return false;
      throw error;
    }
  }

  async records(events: ImportEvent[]): Promise<void> {
    const recordedAt = new Date().toISOString();
    const toAppend = events.map((event, i) => this.toAppend(event, String(i), recordedAt));
    try {
      await appendLinkedInChunks(this.store, this.stream, toAppend, this.revision);
    } catch (error) {
      // This request outlived its lease and a retry took the run over: that retry's answers are the run's.
      // Without a key no retry can: a worker ended the run as abandoned (abandon-push.decision.ts).
      if (error instanceof WrongExpectedVersion) throw this.keyed ? inProgress() : endedAsAbandoned();
      throw error;
    }
  }

  private toAppend(event: ImportEvent, step: string, recordedAt = new Date().toISOString()) {
    return toEventToAppend(this.stream, { event, key: `push/${this.attempt}/${step}` }, this.metadata, recordedAt);
  }
}

const reused = () =>
  new AppError('unprocessable', 'IDEMPOTENCY_KEY.REUSED', 'This Idempotency-Key was already used with a different request body', {});

const endedAsAbandoned = () =>
  new AppError(
    'conflict',
    'IMPORT.RUN_ABANDONED',
    'This batch took so long that its run was ended as abandoned before its answers were recorded; the records it ' +
      'imported are in their contact streams; send the batch again to have every record answered',
    {},
  );

const inProgress = () =>
  new AppError(
    'conflict',
    'IDEMPOTENCY_KEY.IN_PROGRESS',
    'Another request with this Idempotency-Key is still in progress; retry later to get its answers',
    {},
  );
