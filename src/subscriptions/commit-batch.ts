/**
 * One batch of one projection = one transaction: move the checkpoint (compare-and-set), apply the
 * events, commit. A crash anywhere before COMMIT leaves both untouched, a crash after leaves both
 * done; the next runner resumes from the stored checkpoint. At-least-once delivery, exactly-once effect.
 */
import type { Pool } from 'pg';
import type { Checkpoint, RecordedEvent } from '../event-store/event-store.port';
import { beginAndAdvanceCheckpoint, type VersionState } from './checkpoint-store';
import type { Projection, ProjectionMode } from './projection';

/** A projection version as one runner drives it; `checkpoint` is what the runner last committed. */
export interface RunnerMember {
  projection: Projection;
  version: number;
  state: Extract<VersionState, 'live' | 'building'>;
  mode: ProjectionMode;
  checkpoint: Checkpoint | undefined;
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

export async function commitBatch(
  pool: Pool,
  member: RunnerMember,
  events: RecordedEvent[],
  next: Checkpoint,
  observer: BatchObserver = {},
): Promise<void> {
  const started = performance.now();
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // The compare-and-set comes first, so a competing runner blocks here on the row lock instead of
    // doing the work twice. Read-model batches commit without waiting for the WAL flush: a crash can
    // lose the last ones, but rows and checkpoint together, and the runner re-derives them from the
    // durable event log; each live batch is spared an fsync. Reactors commit synchronously: a job a
    // worker may already have run must never vanish and be enqueued again.
    const advanced = await beginAndAdvanceCheckpoint(
      client,
      {
        name: member.projection.name,
        version: member.version,
        state: member.state,
        previous: member.checkpoint,
        next,
        events: events.length,
        lastEventAt: events.at(-1)?.created,
      },
      { synchronousCommit: member.projection.kind !== 'read_model' },
    );
    if (!advanced) throw new CheckpointConflict({ name: member.projection.name, version: member.version, state: member.state });
    if (events.length) await member.projection.handle(events, { client, version: member.version, mode: member.mode });
    await observer.beforeCommit?.(member, events);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
  member.checkpoint = next;
  observer.committed?.(member, events, performance.now() - started);
}
