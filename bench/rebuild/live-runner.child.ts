/**
 * The worker side of the live-lag run: every read model and the reactor, as the worker runs them.
 * An event's lag is the time from its commit in the store (its `created`) to the commit of the
 * projection batch that applied it, for events committed inside the measuring window.
 */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { startProjections } from '../../src/subscriptions/start-projections';
import { PROJECTION_LANES, READ_MODELS, REACTORS } from '../../test/harness/projection-catalogue';
import { childMain } from '../lib/child';
import { percentile } from '../lib/stats';

export interface LiveRunnerInput {
  url: string;
  /** Epoch ms: events created in [measureFrom, measureUntil) are measured; the runner stops at stopAt. */
  measureFrom: number;
  measureUntil: number;
  stopAt: number;
  /** false: each projection reads on its own subscription (the shared read's comparison). */
  sharedRead?: boolean;
  /** false: members of the shared read commit one transaction each. */
  commitTogether?: boolean;
  /** false: every projection on one shared read, as before lanes (the worker gives payments a lane of its own). */
  lanes?: boolean;
}

export interface LagFigures {
  events: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export type LiveRunnerResult = Record<string, LagFigures>;

childMain<LiveRunnerInput, LiveRunnerResult>(async (input) => {
  const pool = new Pool({ connectionString: input.url, max: 20 });
  const store = new PostgresEventStore(pool);
  const lags = new Map<string, number[]>();
  const running = await startProjections({
    store,
    pool,
    readModels: READ_MODELS,
    reactors: REACTORS,
    sharedRead: input.sharedRead,
    commitTogether: input.commitTogether,
    lanes: input.lanes === false ? undefined : PROJECTION_LANES,
    observer: {
      committed: (member, events) => {
        const now = Date.now();
        let list = lags.get(member.projection.name);
        if (!list) lags.set(member.projection.name, (list = []));
        for (const event of events) {
          const created = event.created.getTime();
          if (created >= input.measureFrom && created < input.measureUntil) list.push(now - created);
        }
      },
    },
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, input.stopAt - Date.now())));
  } finally {
    await running.stop();
    await store.close();
    await pool.end();
  }
  const result: LiveRunnerResult = {};
  for (const [name, values] of lags) {
    result[name] = { events: values.length, p50Ms: percentile(values, 50), p99Ms: percentile(values, 99), maxMs: Math.max(...values) };
  }
  return result;
});
