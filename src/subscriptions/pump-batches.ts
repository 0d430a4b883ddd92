/**
 * Feeds one subscription to one or more projection versions (a live runner drives one; a rebuild
 * drives several over a single read of history). Each member commits its own transaction and
 * checkpoint; members skip what they already committed, so they may start from different places.
 *
 * Batches adapt (see read-ahead.ts): up to `maxBatchSize` events when behind, as small as what
 * arrived when caught up.
 */
import type { Pool } from 'pg';
import { compareCheckpoints } from '../event-store/checkpoint';
import type { Checkpoint, EventStore, RecordedEvent, SubscriptionBatch } from '../event-store/event-store.port';
import { commitBatch, commitBatches, type BatchObserver, type BatchPart, type RunnerMember } from './commit-batch';
import { matchesFilter, unionFilter } from './event-filter';
import { readAhead } from './read-ahead';

export interface PumpOptions {
  /** The store, or a lane's view of the process's one read (log-fan-out.ts). */
  store: Pick<EventStore, 'subscribeToAll'>;
  pool: Pool;
  members: RunnerMember[];
  signal: AbortSignal;
  maxBatchSize?: number;
  /** A member with nothing to apply still records its progress, but at most this often. */
  idleCheckpointIntervalMs?: number;
  /** Return true to stop after this batch is committed (a rebuild stops once caught up). */
  stopAfter?: (batch: SubscriptionBatch) => boolean | Promise<boolean>;
  observer?: BatchObserver;
  onBatchRead?: (batch: SubscriptionBatch) => void;
  /**
   * A member whose batch fails leaves this pump and the others go on (the shared live read, see
   * projection-group.ts). Without it, the first failure ends the pump (a rebuild stops as a whole).
   */
  onMemberFailed?: (member: RunnerMember, error: unknown) => void;
  /** Members commit their parts of a batch in one transaction while the read keeps up (see commitParts, commit-batch.ts). */
  commitTogether?: boolean;
}

export async function pumpBatches(options: PumpOptions): Promise<void> {
  const { signal } = options;
  const members = [...options.members];
  const idleInterval = options.idleCheckpointIntervalMs ?? 1000;
  const lastCommit = new Map<RunnerMember, number>(members.map((m) => [m, 0]));
  const maxBatchSize = options.maxBatchSize ?? 1000;
  const subscription = options.store.subscribeToAll({
    after: earliest(members.map((m) => m.checkpoint)),
    filter: unionFilter(members.map((m) => m.projection.filter)),
    maxBatchSize,
  });
  const close = () => void subscription.close();
  signal.addEventListener('abort', close);
  try {
    if (signal.aborted) return; // aborted before the listener was there: it will not fire
    for await (const batch of readAhead(subscription, maxBatchSize)) {
      if (signal.aborted) return;
      options.onBatchRead?.(batch);
      const stop = (await options.stopAfter?.(batch)) ?? false;
      const next = batch.checkpoint;
      if (next) {
        const parts: BatchPart[] = [];
        for (const member of members) {
          if (member.checkpoint && compareCheckpoints(next, member.checkpoint) <= 0) continue;
          const events = eventsFor(member, batch.events);
          if (events.length > 0 || stop || Date.now() - lastCommit.get(member)! >= idleInterval) parts.push({ member, events });
        }
        for (const { member } of parts) lastCommit.set(member, Date.now());
        // A full batch (or one of the first catch-up) means the read is behind the log.
        const behind = !batch.caughtUp || batch.events.length >= maxBatchSize;
        await commitParts(options, parts, next, members, behind);
        if (!members.length) return;
      }
      if (stop) return;
    }
  } finally {
    signal.removeEventListener('abort', close);
    await subscription.close();
  }
}

/**
 * Commits each member's part of a batch: in one transaction when `commitTogether` and the read is
 * not behind the log (falling back to one transaction per member if it fails, so a failure stays
 * with the member that caused it), else one transaction per member, side by side.
 *
 * Why not when behind: live, a batch is a few events and its cost is round trips, which one
 * transaction saves (live lag p99, docs/BENCHMARKS.md). Behind, a batch is up to a thousand events
 * per member and its cost is the members' statements and work: in one transaction they run one after
 * the other on one connection, the service's CPU idle while PostgreSQL works and the other way round.
 * After bench:import's push acknowledged its last batch, the default lane (contacts, import_events,
 * sync_runs, the audit chain) caught up at a third of a core of Node and half a core of PostgreSQL:
 * ~16 s. Side by side, one member's statements run while another's rows are built: ~10 s.
 */
async function commitParts(
  options: PumpOptions,
  parts: BatchPart[],
  next: Checkpoint,
  members: RunnerMember[],
  behind: boolean,
): Promise<void> {
  if (options.commitTogether && !behind && parts.length > 1) {
    try {
      await commitBatches(options.pool, parts, next, options.observer);
      return;
    } catch {
      // Rolled back as a whole: redo member by member below, where the failure surfaces on its own.
    }
  }
  const { onMemberFailed } = options;
  await Promise.all(
    parts.map(({ member, events }) => {
      const committing = commitBatch(options.pool, member, events, next, options.observer);
      if (!onMemberFailed) return committing;
      return committing.catch((error: unknown) => {
        members.splice(members.indexOf(member), 1);
        onMemberFailed(member, error);
      });
    }),
  );
}

/** The batch's events this member wants and has not committed yet (it may have started further on). */
function eventsFor(member: RunnerMember, events: RecordedEvent[]): RecordedEvent[] {
  const { checkpoint, projection } = member;
  const fresh = !checkpoint || !events.length || compareCheckpoints(events[0].position, checkpoint) > 0;
  return events.filter((e) => matchesFilter(projection.filter, e) && (fresh || compareCheckpoints(e.position, checkpoint!) > 0));
}

function earliest(checkpoints: Array<Checkpoint | undefined>): Checkpoint | undefined {
  if (checkpoints.some((c) => c === undefined)) return undefined;
  return (checkpoints as Checkpoint[]).reduce((a, b) => (compareCheckpoints(a, b) <= 0 ? a : b));
}
