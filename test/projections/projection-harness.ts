/**
 * A database with the event store, the projection registry and the job queue installed, plus the
 * waits the projection tests use: they poll for a state (caught up, a lock held), they never sleep
 * in place of synchronisation.
 */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { runReadModelMigrations } from '../../src/database/data-source';
import { installJobQueue } from '../../src/jobs/install-job-queue';
import type { Projection } from '../../src/subscriptions/projection';
import { measureLag } from '../../src/subscriptions/projection-lag';
import type { EventStore } from '../../src/event-store/event-store.port';
import { waitUntilSettled } from '../harness/settled-history';
import { createPreparedTestDatabase, type TestTemplate } from '../harness/test-database';

export interface ProjectionDatabase {
  url: string;
  pool: Pool;
  store: PostgresEventStore;
  close(): Promise<void>;
}

/** The event store, the projection registry and the job queue: migrated once per run, then copied. */
const PROJECTION_SCHEMA: TestTemplate = {
  key: 'projections',
  async prepare(url) {
    const pool = new Pool({ connectionString: url, max: 2 });
    try {
      await new PostgresEventStore(pool).migrate();
      await runReadModelMigrations(url);
      await installJobQueue(pool);
    } finally {
      await pool.end();
    }
  },
};

export async function createProjectionDatabase(label: string): Promise<ProjectionDatabase> {
  // Rebuild batches and killed runners hold transactions open: keep them off the shared cluster.
  const url = await createPreparedTestDatabase(label, PROJECTION_SCHEMA, 'quarantine');
  const pool = new Pool({ connectionString: url, max: 20 });
  const store = new PostgresEventStore(pool);
  await store.migrate(); // nothing left to apply; it sizes the store's statement preparation as a start does
  return {
    url,
    pool,
    store,
    close: async () => {
      await store.close();
      await pool.end();
    },
  };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Every live/building version of `projections` has processed everything committed so far. Polled
 * gently: each probe reads the store once per projection, and the ESDB emulator serves those reads
 * from the test's own process.
 */
export async function waitUntilCaughtUp(
  store: EventStore,
  pool: Pool,
  projections: readonly Projection[],
  timeoutMs = 30_000,
): Promise<void> {
  // Lag is measured over settled history only (PostgreSQL store: below the oldest transaction still
  // running in the cluster). Events the test just appended may not have settled yet while another
  // transaction is open, and a lag of 0 would then say nothing about them: wait until they have.
  await waitUntilSettled(pool, timeoutMs);
  await waitFor(
    'projections to catch up',
    async () => {
      const lags = await measureLag(store, pool, projections, { maxCount: 1 });
      return lags.length >= projections.length && lags.every((lag) => lag.lagEvents === 0);
    },
    timeoutMs,
    150,
  );
}
