/**
 * Keeps every projection running in this process: for each one, wait for its lock (standing by while
 * another process holds it), run the serving version from its stored checkpoint, and when that
 * version is retired by a rebuild's switch, follow readers to the new version. Errors restart the
 * projection from its stored checkpoint after a backoff; nothing is skipped (a poison event stops
 * that projection and shows up as growing lag, it is never silently passed over).
 *
 * With a group (projection-group.ts), a projection first catches up on a read of its own, then rides
 * the group's shared live read. Catching up alone first keeps a projection that is far behind (a
 * fresh install, a retry after a poison event) from dragging everyone's read back through history.
 */
import type { ClientConfig, Pool } from 'pg';
import type { EventStore } from '../event-store/event-store.port';
import { readVersions } from './checkpoint-store';
import { CheckpointConflict, type BatchObserver, type RunnerMember } from './commit-batch';
import { acquireLocks, lockKey } from './projection-lock';
import type { Projection } from './projection';
import type { ProjectionGroup } from './projection-group';
import { pumpBatches } from './pump-batches';
import { isStoreUnavailable } from '../event-store/store-unavailable';

export type RunnerState = 'starting' | 'standby' | 'active' | 'retrying' | 'stopped';

export interface RunnerStatus {
  name: string;
  state: RunnerState;
  version?: number;
  lastError?: string;
  /** While active: on a read of its own (catching up, or no group) or on the group's shared read. */
  read?: 'own' | 'shared';
}

export interface SupervisorOptions {
  store: EventStore;
  pool: Pool;
  maxBatchSize?: number;
  observer?: BatchObserver;
  /** Connection settings for the lock sessions (default: the pool's). */
  lockConnection?: ClientConfig;
  retryDelayMs?: { initial: number; max: number };
  log?: (level: 'info' | 'warn' | 'error', message: string, error?: unknown) => void;
  /** Called whenever a runner in this process changes state (standby, active, …). */
  onStatus?: (status: Readonly<RunnerStatus>) => void;
}

export function superviseProjection(
  projection: Projection,
  options: SupervisorOptions,
  signal: AbortSignal,
  status: RunnerStatus,
  group?: ProjectionGroup,
): Promise<void> {
  const log = options.log ?? (() => undefined);
  const { initial, max } = options.retryDelayMs ?? { initial: 500, max: 30_000 };
  let delay = initial;
  const set = (state: RunnerState, version = status.version, read?: RunnerStatus['read']) => {
    status.state = state;
    status.version = version;
    status.read = read;
    options.onStatus?.(status);
  };
  return (async () => {
    while (!signal.aborted) {
      // Whether this attempt committed a batch: a failure after that follows progress, not other failures.
      let progressed = () => false;
      try {
        const live = (await readVersions(options.pool, projection.name)).find((v) => v.state === 'live');
        if (!live) throw new Error(`projection ${projection.name} has no live version: install it first`);
        set('standby', live.version);
        const lock = await acquireLocks(options.lockConnection ?? options.pool.options, [lockKey(projection.name, live.version)], {
          wait: true,
          signal,
        });
        if (!lock) break;
        const running = new AbortController();
        const stop = () => running.abort();
        signal.addEventListener('abort', stop);
        void lock.lost.then(stop);
        try {
          // Re-read under the lock: the previous holder may have moved it, or a switch retired it.
          const current = (await readVersions(options.pool, projection.name)).find((v) => v.version === live.version);
          if (current?.state !== 'live') continue;
          set('active', live.version, 'own');
          log('info', `projection ${projection.name}@${live.version} active from ${current.checkpoint ?? 'the start'}`);
          const member: RunnerMember = { projection, version: live.version, state: 'live', mode: 'live', checkpoint: current.checkpoint };
          // Committed batches move member.checkpoint (commit-batch.ts), on its own read and on the shared one.
          progressed = () => member.checkpoint !== current.checkpoint;
          await pumpBatches({
            store: options.store,
            pool: options.pool,
            members: [member],
            signal: running.signal,
            maxBatchSize: options.maxBatchSize,
            observer: options.observer,
            stopAfter: (batch) => group !== undefined && batch.caughtUp,
          });
          if (group && !running.signal.aborted) {
            const riding = group.ride(member, running.signal);
            set('active', live.version, 'shared');
            await riding;
          }
          delay = initial;
        } finally {
          signal.removeEventListener('abort', stop);
          await lock.release();
        }
      } catch (error) {
        if (signal.aborted) break;
        if (error instanceof CheckpointConflict) {
          log('info', error.message);
          continue;
        }
        // A failure after committed batches starts the backoff over: the delay grew during an outage (a
        // stalled database took it to its 30 s cap) must not idle the projection after a later passing error.
        if (progressed()) delay = initial;
        status.lastError = error instanceof Error ? error.message : String(error);
        set('retrying');
        // A store that does not answer (a restart, a stall) is retried until it does, and readiness and
        // /metrics say so: a warning. An error is what no retry may cure, such as an event the projection
        // cannot apply. (A 30 s stall logged some 80 error lines, one per projection and retry.)
        log(isStoreUnavailable(error) ? 'warn' : 'error', `projection ${projection.name} failed; retrying in ${delay} ms`, error);
        await sleep(delay, signal);
        delay = Math.min(delay * 2, max);
      }
    }
    set('stopped');
  })();
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
