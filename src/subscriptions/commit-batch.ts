/**
 * One batch = one transaction: move the checkpoint (compare-and-set), apply the events, commit. A
 * crash anywhere before COMMIT leaves both untouched, a crash after leaves both done; the next runner
 * resumes from the stored checkpoint. At-least-once delivery, exactly-once effect.
 *
 * Several members fed by one read (the shared live read, projection-group.ts) may commit their parts
 * of a batch in one transaction: one BEGIN with every compare-and-set, one COMMIT, one transaction id
 * holding back the store's horizon instead of one per member. Each part still moves only its own
 * checkpoint with its own effects, so the protocol per member is unchanged.
 */
import type { Pool } from 'pg';
import type { Checkpoint, RecordedEvent } from '../event-store/event-store.port';
import { beginAndAdvanceCheckpoints, type VersionState } from './checkpoint-store';
import type { Projection, ProjectionMode } from './projection';

/** A projection version as one runner drives it; `checkpoint` is what the runner last committed. */
export interface RunnerMember {
  projection: Projection;
  version: number;
  state: Extract<VersionState, 'live' | 'building'>;
  mode: ProjectionMode;
  checkpoint: Checkpoint | undefined;
}

/** One member's share of a batch. */
export interface BatchPart {
  member: RunnerMember;
  events: RecordedEvent[];
}

/** Hooks for metrics and tests; `beforeCommit` runs inside the open transaction. */
export interface BatchObserver {
  beforeCommit?(member: RunnerMember, events: RecordedEvent[]): void | Promise<void>;
  committed?(member: RunnerMember, events: RecordedEvent[], durationMs: number): void;
}

/** The stored checkpoint is not the one this runner started from, or the version left its state. */
export class CheckpointConflict extends Error {
  constructor(readonly member: Pick<RunnerMember, 'version' | 'state'> & { name: string }) {
    super(`projection ${member.name}@${member.version}: checkpoint moved by another runner, or version no longer ${member.state}`);
    this.name = 'CheckpointConflict';
  }
}

export function commitBatch(
  pool: Pool,
  member: RunnerMember,
  events: RecordedEvent[],
  next: Checkpoint,
  observer: BatchObserver = {},
): Promise<void> {
  return commitBatches(pool, [{ member, events }], next, observer);
}

/** Commits every part in one transaction, or none of them (the first failure rolls all back). */
export async function commitBatches(pool: Pool, parts: BatchPart[], next: Checkpoint, observer: BatchObserver = {}): Promise<void> {
  const started = performance.now();
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // The compare-and-sets come first, so a competing runner blocks here on the row lock instead of
    // doing the work twice. Read-model batches commit without waiting for the WAL flush: a crash can
    // lose the last ones, but rows and checkpoint together, and the runner re-derives them from the
    // durable event log; each live batch is spared an fsync. Reactors commit synchronously: a job a
    // worker may already have run must never vanish and be enqueued again.
    const advanced = await beginAndAdvanceCheckpoints(
      client,
      parts.map(({ member, events }) => ({
        name: member.projection.name,
        version: member.version,
        state: member.state,
        previous: member.checkpoint,
        next,
        events: events.length,
        lastEventAt: events.at(-1)?.created,
      })),
      { synchronousCommit: parts.some(({ member }) => member.projection.kind !== 'read_model') },
    );
    const stale = parts.find((_, i) => !advanced[i]);
    if (stale)
      throw new CheckpointConflict({ name: stale.member.projection.name, version: stale.member.version, state: stale.member.state });
    for (const { member, events } of parts) {
      if (events.length) await member.projection.handle(events, { client, version: member.version, mode: member.mode });
      await observer.beforeCommit?.(member, events);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
  const durationMs = performance.now() - started;
  for (const { member, events } of parts) {
    member.checkpoint = next;
    observer.committed?.(member, events, durationMs);
  }
}
