/**
 * How far each projection version is behind the log: in events (counted up to a cap, because the
 * store offers no cheap count) and in seconds (age of the oldest event it has not processed yet;
 * 0 when caught up). Cheap when caught up — one read per version — which is the normal case.
 */
import type { Pool } from 'pg';
import type { Checkpoint, EventStore } from '../event-store/event-store.port';
import { readVersions, type VersionState } from './checkpoint-store';
import type { Projection } from './projection';

export interface ProjectionLag {
  name: string;
  kind: Projection['kind'];
  version: number;
  state: VersionState;
  checkpoint: Checkpoint | undefined;
  eventsProcessed: number;
  lagEvents: number;
  /** True when there are more than `lagEvents` events pending (the count stopped at the cap). */
  lagEventsAtLeast: boolean;
  lagSeconds: number;
}

export interface LagOptions {
  /** Stop counting pending events here (default 10,000). */
  maxCount?: number;
  now?: () => number;
  /**
   * The version states to measure (default: live and building). Readiness asks for live only: a
   * version still being rebuilt, or left behind by a killed rebuild, serves no reader, and measuring it
   * can cost a long read on a store far behind its checkpoint.
   */
  states?: readonly VersionState[];
}

export async function measureLag(
  store: EventStore,
  pool: Pool,
  projections: readonly Projection[],
  options: LagOptions = {},
): Promise<ProjectionLag[]> {
  const cap = options.maxCount ?? 10_000;
  const now = options.now ?? Date.now;
  const states = options.states ?? ['live', 'building'];
  const filters = new Map(projections.map((p) => [p.name, p]));
  const lags: ProjectionLag[] = [];
  for (const row of await readVersions(pool)) {
    const projection = filters.get(row.name);
    if (!projection || !states.includes(row.state)) continue;
    let lagEvents = 0;
    let oldest: Date | undefined;
    let after = row.checkpoint;
    while (lagEvents < cap) {
      const want = Math.min(1000, cap - lagEvents);
      const page = await store.readAll({ after, maxCount: want, filter: projection.filter });
      if (!page.length) break;
      oldest ??= page[0].created;
      lagEvents += page.length;
      after = page.at(-1)!.position;
      if (page.length < want) break;
    }
    lags.push({
      name: row.name,
      kind: row.kind,
      version: row.version,
      state: row.state,
      checkpoint: row.checkpoint,
      eventsProcessed: row.eventsProcessed,
      lagEvents,
      lagEventsAtLeast: lagEvents >= cap,
      lagSeconds: oldest ? Math.max(0, (now() - oldest.getTime()) / 1000) : 0,
    });
  }
  return lags;
}

/** Prometheus text exposition of `measureLag`'s result, for /metrics. */
export function formatLagMetrics(lags: ProjectionLag[]): string {
  const lines = [
    '# HELP idem_projection_lag_events Events in the log not yet processed by the projection version (capped).',
    '# TYPE idem_projection_lag_events gauge',
    ...lags.map((l) => `idem_projection_lag_events{${labels(l)}} ${l.lagEvents}`),
    '# HELP idem_projection_lag_seconds Age of the oldest event the projection version has not processed (0 when caught up).',
    '# TYPE idem_projection_lag_seconds gauge',
    ...lags.map((l) => `idem_projection_lag_seconds{${labels(l)}} ${l.lagSeconds.toFixed(3)}`),
  ];
  return `${lines.join('\n')}\n`;
}

const labels = (l: ProjectionLag) => `projection="${l.name}",version="${l.version}",state="${l.state}"`;
