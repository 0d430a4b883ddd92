import type { Pool } from 'pg';
import type { EventStore } from '../event-store/event-store.port';
import type { Projection } from '../subscriptions/projection';
import { measureLag } from '../subscriptions/projection-lag';

/**
 * Rejects when a live projection's oldest unprocessed event is older than `maxLagMs`. A version being
 * rebuilt beside the live one (or left behind by a killed rebuild) is not even measured: readers do not
 * see it until it has caught up, and its lag may be slow to read.
 */
export async function assertProjectionsCurrent(store: EventStore, pool: Pool, projections: Projection[], maxLagMs: number): Promise<void> {
  // The age of the first pending event is all this needs: one event read per live projection.
  const lags = await measureLag(store, pool, projections, { maxCount: 1, states: ['live'] });
  const behind = lags.filter((lag) => lag.lagSeconds * 1000 > maxLagMs);
  if (behind.length) {
    const names = behind.map((lag) => `${lag.name} v${lag.version} (${Math.round(lag.lagSeconds)} s)`).join(', ');
    throw new Error(`behind the log by more than ${maxLagMs / 1000} s: ${names}`);
  }
}
