/**
 * The read models' migrations at start-up (prepareDatabase) take their advisory lock on a connection of
 * their own: it keeps the process's configured deadlines (IDEM_DB_CONNECT_TIMEOUT, IDEM_DB_QUERY_DEADLINE),
 * not the built-in 5 s / 10 s, when PostgreSQL stops answering. The server goes through a proxy that
 * black-holes (accepts and never forwards), as a paused server or a partition would.
 */
import { Client } from 'pg';
import { loadConfig } from '../config/config';
import { PostgresNotAnswering } from '../database/not-answering';
import { startBlackHoleProxy, type BlackHoleProxy } from '../../test/harness/black-hole-proxy';
import { createTestDatabase } from '../../test/harness/test-database';
import { waitUntil } from '../../test/harness/wait-until';
import { prepareDatabase } from './read-models';
import { startRuntime, type Runtime } from './runtime';

/** Far below the built-in deadlines (5 s to connect, 10 s for a statement). */
const DEADLINE_MS = 1_000;
/** Timers fire late on a busy machine; a failure later than this past the deadline is the built-in one. */
const SLACK_MS = 1_500;

describe('prepareDatabase when PostgreSQL stops answering', () => {
  let url: string;
  let proxy: BlackHoleProxy;
  let runtime: Runtime;
  let direct: Client;

  beforeAll(async () => {
    url = await createTestDatabase('migration_lock_deadlines');
    proxy = await startBlackHoleProxy(url);
    runtime = await startRuntime(
      loadConfig({
        DATABASE_URL: proxy.url,
        LOG_LEVEL: 'error',
        IDEM_DB_CONNECT_TIMEOUT: `${DEADLINE_MS}ms`,
        IDEM_DB_QUERY_DEADLINE: `${DEADLINE_MS}ms`,
      }),
    );
    direct = new Client({ connectionString: url });
    await direct.connect();
  });
  afterEach(() => proxy.forward());
  afterAll(async () => {
    await direct?.end();
    await runtime?.close();
    await proxy?.close();
  });

  const timedFailure = async (work: Promise<unknown>) => {
    const started = Date.now();
    const error = await work.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    return { error, ms: Date.now() - started };
  };

  it('gives up on the lock connection within the configured connect deadline', async () => {
    proxy.blackHole();
    const { error, ms } = await timedFailure(prepareDatabase(runtime, []));
    expect(error).toBeInstanceOf(PostgresNotAnswering);
    expect(ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
  });

  it('gives up waiting for the lock within the configured statement deadline once PostgreSQL stops answering', async () => {
    await direct.query(`SELECT pg_advisory_lock(hashtext('idem.read_model_migrations'))`);
    try {
      const preparing = timedFailure(prepareDatabase(runtime, []));
      // The migrations wait for the lock, held by another session.
      await waitUntil(
        async () =>
          (
            await direct.query<{ waiting: number }>(
              `SELECT count(*)::int AS waiting FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%idem.read_model_migrations%'`,
            )
          ).rows[0].waiting,
        (waiting) => waiting === 1,
        10_000,
      );
      proxy.blackHole();
      const stalled = Date.now();
      const { error } = await preparing;
      expect(error).toBeInstanceOf(PostgresNotAnswering);
      expect(Date.now() - stalled).toBeLessThan(DEADLINE_MS + SLACK_MS);
    } finally {
      await direct.query(`SELECT pg_advisory_unlock_all()`);
    }
  });
});
