/**
 * The worker's entry into projections: installs what is missing (version 1 of each read model, the
 * reactors' checkpoints) and keeps every projection running until `stop()`.
 *
 *   const projections = await startProjections({ store, pool, readModels: readModelsOf(features), reactors: reactorsOf(features, config),
 *     lanes: projectionLanesOf(features, config) });
 *   …  metrics: formatLagMetrics(await projections.lag())  …  await projections.stop();
 *
 * Live projections ride one shared read per lane, given by their features (`Feature.projectionLane`):
 * a lane's members wait for each other, other lanes do not (why: projection-group.ts). The lanes' reads
 * are one read of the log, fanned out to each lane from memory while it keeps up (log-fan-out.ts).
 */
import { setMaxListeners } from 'node:events';
import type { Projection } from './projection';
import { measureLag, type LagOptions, type ProjectionLag } from './projection-lag';
import { unionFilter } from './event-filter';
import { LogFanOut } from './log-fan-out';
import { ProjectionGroup } from './projection-group';
import { superviseProjection, type RunnerStatus, type SupervisorOptions } from './projection-supervisor';
import type { AnyReadModel } from './read-models/read-model';
import { readModelProjection } from './read-models/read-model.projection';
import { installReactors, installReadModels } from './read-models/versions';

export interface StartProjectionsOptions extends SupervisorOptions {
  readModels: AnyReadModel[];
  reactors: Projection[];
  /**
   * Live projections share one read of the log per lane once caught up (default true, see
   * projection-group.ts); false gives each its own subscription (benchmark comparisons).
   */
  sharedRead?: boolean;
  /** Members of the shared read commit each batch in one transaction while it keeps up (default true; behind, side by side). */
  commitTogether?: boolean;
  /**
   * The lane each projection rides, by name (`projectionLanesOf(features, config)`); those not named
   * share the default lane. Without it, every projection rides the default lane.
   */
  lanes?: ReadonlyMap<string, string>;
}

export interface RunningProjections {
  /** Live view of each runner in this process (standby while another process holds the lock). */
  readonly statuses: readonly RunnerStatus[];
  /** What runs here: every read model (as a projection) and reactor. */
  readonly projections: readonly Projection[];
  lag(options?: LagOptions): Promise<ProjectionLag[]>;
  stop(): Promise<void>;
}

export async function startProjections(options: StartProjectionsOptions): Promise<RunningProjections> {
  await installReadModels(options.pool, options.readModels);
  await installReactors(options.pool, options.reactors);
  const projections = [...options.readModels.map(readModelProjection), ...options.reactors];
  const controller = new AbortController();
  // Each runner listens on this one signal (waiting for its lock, running, backing off), and so does each
  // lane's shared read: listeners grow with the projections, past Node's leak warning at 10 (seven read
  // models and three reactors reach it) without any leak.
  setMaxListeners(5 * projections.length + 4, controller.signal);
  const statuses: RunnerStatus[] = projections.map((p) => ({ name: p.name, state: 'starting' }));
  const groups = new Map<string, ProjectionGroup>();
  // One read of the log for all lanes: it fetches what any projection wants, each lane takes its share.
  const fanOut = new LogFanOut(options.store, {
    filter: unionFilter(projections.map((p) => p.filter)),
    maxBatchSize: options.maxBatchSize,
  });
  const groupOf = (projection: Projection): ProjectionGroup | undefined => {
    if (options.sharedRead === false) return undefined;
    const lane = options.lanes?.get(projection.name) ?? DEFAULT_LANE;
    let group = groups.get(lane);
    if (!group) groups.set(lane, (group = new ProjectionGroup({ ...options, fanOut }, controller.signal)));
    return group;
  };
  const running = projections.map((projection, i) =>
    superviseProjection(projection, options, controller.signal, statuses[i], groupOf(projection)),
  );
  return {
    statuses,
    projections,
    lag: (lagOptions) => measureLag(options.store, options.pool, projections, lagOptions),
    stop: async () => {
      controller.abort();
      await Promise.all([...running, ...[...groups.values()].map((group) => group.closed)]);
      await fanOut.stopped();
    },
  };
}

/** The lane of every projection whose feature names none. */
export const DEFAULT_LANE = 'default';
