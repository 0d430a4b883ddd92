/**
 * `idem projections rebuild`: builds the next version of one or more read models from the start of
 * history beside the live versions (one read of the log feeds them all), then switches readers.
 * Reactors are never part of a rebuild: replaying history must not enqueue real work again.
 * An interrupted rebuild leaves its version `building`; running the command again resumes it (from
 * the start if a server crash emptied its tables, which stay unlogged until the switch).
 */
import type { ClientConfig, Pool } from 'pg';
import { compareCheckpoints } from '../../event-store/checkpoint';
import type { Checkpoint, EventStore, SubscriptionBatch } from '../../event-store/event-store.port';
import { readVersions } from '../checkpoint-store';
import type { BatchObserver, RunnerMember } from '../commit-batch';
import { acquireLocks, lockKey } from '../projection-lock';
import { pumpBatches } from '../pump-batches';
import type { AnyReadModel } from './read-model';
import { freshTableProjection, readModelProjection } from './read-model.projection';
import { switchReaders, type SwitchResult } from './switch-readers';
import { WrittenKeys } from './written-keys';
import { finishVersionTable, prepareNextVersion, type NextVersion } from './versions';

export interface RebuildPlan extends NextVersion {
  name: string;
}

export interface RebuildProgress {
  /** Events read from the log (all read models together). */
  eventsRead: number;
  /**
   * Events applied to the version being built, per read model — on a resumed rebuild counting those the
   * interrupted run applied, so progress is measured against the whole history, as its estimate is.
   */
  applied: Record<string, number>;
}

export interface RebuildOptions {
  store: EventStore;
  pool: Pool;
  models: AnyReadModel[];
  /** Events per transaction (default REBUILD_BATCH_SIZE). */
  maxBatchSize?: number;
  signal?: AbortSignal;
  lockConnection?: ClientConfig;
  onPlanned?(plan: RebuildPlan[]): void;
  onProgress?(progress: RebuildProgress): void;
  observer?: BatchObserver;
}

/**
 * A rebuild is throughput-bound, not latency-bound: bigger transactions amortise per-statement costs
 * and write a row touched by several events once. (Live runners keep 1,000 for latency.)
 */
export const REBUILD_BATCH_SIZE = 5000;

export class RebuildAlreadyRunning extends Error {
  constructor(names: string[]) {
    super(`a rebuild of ${names.join(', ')} is already running in another process`);
    this.name = 'RebuildAlreadyRunning';
  }
}

/** Held by the one process rebuilding a read model, from before it looks at the building version. */
const rebuildKey = (name: string) => `${name}@rebuild`;

export async function rebuildReadModels(options: RebuildOptions): Promise<SwitchResult[]> {
  const { store, pool, models } = options;
  const lockConnection = options.lockConnection ?? pool.options;
  // Taken before prepareNextVersion, which may start an empty building version over: a rebuild
  // refused because another is running must not touch that one's checkpoint (it would then fail its
  // next compare-and-set with CheckpointConflict).
  const rebuilding = await acquireLocks(
    lockConnection,
    models.map((model) => rebuildKey(model.name)),
    { wait: false },
  );
  if (!rebuilding) throw new RebuildAlreadyRunning(models.map((model) => model.name));
  let lock: Awaited<ReturnType<typeof acquireLocks>>;
  const plan: RebuildPlan[] = [];
  try {
    for (const model of models) plan.push({ name: model.name, ...(await prepareNextVersion(pool, model)) });
    options.onPlanned?.(plan);
    lock = await acquireLocks(
      lockConnection,
      plan.map((p) => lockKey(p.name, p.version)),
      { wait: false },
    );
  } catch (error) {
    await rebuilding.release();
    throw error;
  }
  if (!lock) {
    await rebuilding.release();
    throw new RebuildAlreadyRunning(plan.map((p) => p.name));
  }
  const signal = AbortSignal.any([options.signal ?? new AbortController().signal, abortOn(lock.lost), abortOn(rebuilding.lost)]);
  try {
    const members: RunnerMember[] = models.map((model, i) => ({
      // A table this run started empty holds only what this run writes: track its keys (see written-keys.ts).
      projection: plan[i].resumed ? readModelProjection(model) : freshTableProjection(model, new WrittenKeys()),
      version: plan[i].version,
      state: 'building',
      mode: 'rebuild',
      checkpoint: plan[i].checkpoint,
    }));
    const progress: RebuildProgress = { eventsRead: 0, applied: await appliedSoFar(pool, plan) };
    await pumpBatches({
      store,
      pool,
      members,
      signal,
      maxBatchSize: options.maxBatchSize ?? REBUILD_BATCH_SIZE,
      stopAfter: reachedLiveOrCaughtUp(pool, models),
      onBatchRead: (batch) => {
        progress.eventsRead += batch.events.length;
      },
      observer: {
        beforeCommit: options.observer?.beforeCommit,
        committed: (member, events, ms) => {
          progress.applied[member.projection.name] += events.length;
          options.onProgress?.(progress);
          options.observer?.committed?.(member, events, ms);
        },
      },
    });
    if (signal.aborted) throw signal.reason ?? new Error('rebuild interrupted');
    const results: SwitchResult[] = [];
    for (const [i, model] of models.entries()) {
      await finishVersionTable(pool, model, plan[i].version);
      results.push(await withLockTimeoutRetries(() => switchReaders(store, pool, model, plan[i].version)));
    }
    return results;
  } finally {
    await lock.release();
    await rebuilding.release();
  }
}

/** What each planned version has applied already: nothing for a new one, its recorded count for one resumed. */
async function appliedSoFar(pool: Pool, plan: RebuildPlan[]): Promise<Record<string, number>> {
  const versions = await readVersions(pool);
  const applied = (p: RebuildPlan) =>
    p.resumed ? (versions.find((v) => v.name === p.name && v.version === p.version)?.eventsProcessed ?? 0) : 0;
  return Object.fromEntries(plan.map((p) => [p.name, applied(p)]));
}

/**
 * The rebuild's catch-up ends when the subscription reports it has caught up, or — under a steady
 * stream of writes, where a store may not say so for a while — once it has passed every live
 * version's checkpoint; the switch applies what the live versions did beyond that under their lock.
 */
function reachedLiveOrCaughtUp(pool: Pool, models: AnyReadModel[]) {
  let lastLook = 0;
  let live: Array<Checkpoint | undefined> = [];
  return async (batch: SubscriptionBatch): Promise<boolean> => {
    if (batch.caughtUp) return true;
    if (!batch.checkpoint) return false;
    if (Date.now() - lastLook > 250) {
      lastLook = Date.now();
      const versions = await readVersions(pool);
      live = models.map((m) => versions.find((v) => v.name === m.name && v.state === 'live')?.checkpoint);
    }
    // A live version that has read nothing yet gives no bound: only `caughtUp` ends the catch-up then.
    return (
      live.length > 0 && live.every((checkpoint) => checkpoint !== undefined && compareCheckpoints(batch.checkpoint!, checkpoint) >= 0)
    );
  };
}

function abortOn(lost: Promise<Error>): AbortSignal {
  const controller = new AbortController();
  void lost.then((error) => controller.abort(error));
  return controller.signal;
}

/** The switch gives up after `lock_timeout` if a long read holds the view; try again a few times. */
async function withLockTimeoutRetries<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== '55P03' || attempt >= attempts) throw error;
    }
  }
}
