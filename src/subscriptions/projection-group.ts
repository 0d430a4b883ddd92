/**
 * One shared read of the log for the live projections of one lane (a process runs a group per lane,
 * see start-projections.ts). The lanes' reads are in turn one read of the log, handed to each lane
 * from memory while it keeps up (log-fan-out.ts).
 *
 * Why: with one subscription per projection, six projections meant six reads and six transactions
 * per poll, and every projection's open transaction held back the others' gap-free horizon (the
 * store reads only below the oldest transaction in flight anywhere in the cluster). Live lag p99 was
 * 154–183 ms with six projections against 45 ms with `orders` alone (docs/BENCHMARKS.md). Here one
 * read feeds every member, the members commit side by side, and the next read is sent only once all
 * of them have committed, so the group's own transactions never hold back its own reads.
 *
 * That wait is also why a process has more than one group: a member is only as prompt as the slowest
 * member of its group. A bulk import keeps the contacts read models and the audit chain busy for
 * minutes, and the charge reactor sharing their read waited ~50 s for a charge's job; in a lane of its
 * own it waits at most for the one commit of another lane that is in flight (the store's horizon).
 *
 * Members still commit their own transactions and checkpoints (commit-batch.ts); the group only
 * shares the read. Membership changes (a member joins, leaves or fails) end the current round after
 * the batch in hand and start a new read from the earliest member checkpoint; members skip what they
 * already committed. A member whose batch fails leaves at once and the others go on: its supervisor
 * retries it on a read of its own (see projection-supervisor.ts), so a poison event stalls only its
 * projection.
 */
import type { SupervisorOptions } from './projection-supervisor';
import type { RunnerMember } from './commit-batch';
import type { LogFanOut } from './log-fan-out';
import { pumpBatches } from './pump-batches';

interface Seat {
  leaving: boolean;
  settle(error?: unknown): void;
}

export interface GroupOptions extends Pick<SupervisorOptions, 'store' | 'pool' | 'maxBatchSize' | 'observer'> {
  /** Where the group reads the log: the process's one read shared by every lane (default: the store). */
  fanOut?: LogFanOut;
  /** One transaction per batch for all members while the read keeps up (default true; see pump-batches.ts); false: one per member. */
  commitTogether?: boolean;
}

export class ProjectionGroup {
  private readonly seats = new Map<RunnerMember, Seat>();
  private round: AbortController | undefined;
  private wakeIdle: (() => void) | undefined;
  /** Settles once the group has stopped and no member's batch is in flight any more. */
  readonly closed: Promise<void>;

  constructor(
    private readonly options: GroupOptions,
    private readonly signal: AbortSignal,
  ) {
    this.closed = this.run();
  }

  /**
   * Runs `member` on the shared read. Resolves once `leave` has aborted and the round it rode in has
   * ended (no batch of it in flight); rejects as soon as one of its batches fails.
   */
  ride(member: RunnerMember, leave: AbortSignal): Promise<void> {
    if (leave.aborted || this.signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onLeave = () => {
        const seat = this.seats.get(member);
        if (!seat) return;
        seat.leaving = true;
        this.reform();
      };
      leave.addEventListener('abort', onLeave, { once: true });
      this.seats.set(member, {
        leaving: false,
        settle: (error) => {
          leave.removeEventListener('abort', onLeave);
          if (error === undefined) resolve();
          else reject(error);
        },
      });
      this.reform();
    });
  }

  private reform(): void {
    this.round?.abort();
    this.wakeIdle?.();
  }

  private settle(member: RunnerMember, error?: unknown): void {
    const seat = this.seats.get(member);
    if (!seat) return;
    this.seats.delete(member);
    seat.settle(error);
  }

  private async run(): Promise<void> {
    const onStop = () => this.reform();
    this.signal.addEventListener('abort', onStop);
    try {
      while (!this.signal.aborted) {
        // Members that left during the last round (or while none ran) go now: no batch of theirs is in flight.
        for (const [member, seat] of [...this.seats]) if (seat.leaving) this.settle(member);
        const members = [...this.seats.keys()];
        if (!members.length) {
          await this.idle();
          continue;
        }
        const round = new AbortController();
        this.round = round;
        try {
          await pumpBatches({
            store: this.options.fanOut ?? this.options.store,
            pool: this.options.pool,
            maxBatchSize: this.options.maxBatchSize,
            observer: this.options.observer,
            members,
            signal: round.signal,
            onMemberFailed: (member, error) => this.settle(member, error),
            commitTogether: this.options.commitTogether ?? true,
          });
        } catch (error) {
          // The shared read itself failed: every member still riding retries through its supervisor.
          for (const member of members) this.settle(member, error);
        } finally {
          this.round = undefined;
        }
      }
    } finally {
      this.signal.removeEventListener('abort', onStop);
      for (const member of [...this.seats.keys()]) this.settle(member);
    }
  }

  /** Waits for a member to join, or for the group to stop. */
  private idle(): Promise<void> {
    if (this.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.wakeIdle = () => {
        this.wakeIdle = undefined;
        resolve();
      };
    });
  }
}
