/**
 * A DATABASE_URL or EVENTSTORE_CONNECTION_STRING that leads nowhere stops start-up (the api, the
 * worker, every `idem` command) with one line naming the variable, its value with the password
 * masked and the driver's reason. Found black-box: the service printed the driver's stack from
 * inside the first migration (`Idem failed to start: Error: connect ECONNREFUSED 127.0.0.1:1` and
 * seven `at …` lines), on EventStoreDB a gRPC stack, and the CLI `idem: connect ECONNREFUSED 127.0.0.1:1`.
 */
import { createTestDatabase } from '../../test/harness/test-database';
import { loadConfig } from '../config/config';
import { startBlackHoleProxy } from '../../test/harness/black-hole-proxy';
import { exitOnStartupFailure } from './process-lifecycle';
import { startRuntime } from './runtime';
import { StoreUnreachable } from './store-unreachable';

/** Port 1 (tcpmux): nothing listens there, and only root could make something do so. */
const NOTHING_LISTENS = '127.0.0.1:1';

async function startFailure(env: Record<string, string>): Promise<unknown> {
  return startRuntime(loadConfig({ LOG_LEVEL: 'error', ...env })).then(
    async (runtime) => {
      await runtime.close();
      throw new Error('started');
    },
    (error: unknown) => error,
  );
}

describe('startRuntime', () => {
  describe('when nothing listens at DATABASE_URL', () => {
    it('fails with StoreUnreachable naming the variable, its value with the password masked, and the reason', async () => {
      const error = await startFailure({ DATABASE_URL: `postgres://idem:s3cret@${NOTHING_LISTENS}/idem` });
      expect(error).toBeInstanceOf(StoreUnreachable);
      expect((error as Error).message).toBe(
        `cannot reach PostgreSQL at DATABASE_URL=postgres://idem:***@${NOTHING_LISTENS}/idem: connect ECONNREFUSED ${NOTHING_LISTENS}`,
      );
    });
  });

  describe('when the server at DATABASE_URL accepts connections but never answers', () => {
    it('fails with StoreUnreachable within IDEM_DB_CONNECT_TIMEOUT instead of waiting for ever', async () => {
      const proxy = await startBlackHoleProxy(await createTestDatabase('store_unreachable_stalled'));
      proxy.blackHole();
      try {
        const started = Date.now();
        const error = await startFailure({ DATABASE_URL: proxy.url, IDEM_DB_CONNECT_TIMEOUT: '1s' });
        expect(error).toBeInstanceOf(StoreUnreachable);
        expect((error as Error).message).toMatch(
          /^cannot reach PostgreSQL at DATABASE_URL=.*: PostgreSQL did not complete a new connection within 1000 ms/,
        );
        // The 1 s deadline and a cold start's module loading: seconds, not for ever.
        expect(Date.now() - started).toBeLessThan(4_000);
      } finally {
        await proxy.close();
      }
    });
  });

  describe('when the database DATABASE_URL names does not exist', () => {
    it("fails with StoreUnreachable and the server's reason", async () => {
      const url = new URL(await createTestDatabase('store_unreachable'));
      url.pathname = '/no_such_database';
      const error = await startFailure({ DATABASE_URL: url.toString() });
      expect(error).toBeInstanceOf(StoreUnreachable);
      expect((error as Error).message).toMatch(/^cannot reach PostgreSQL at DATABASE_URL=postgres:\/\/.*\/no_such_database: /);
      expect((error as Error).message).toContain('database "no_such_database" does not exist');
      expect((error as Error).message).not.toContain(decodeURIComponent(url.password) || 'a password');
    });
  });

  describe('when nothing listens at EVENTSTORE_CONNECTION_STRING', () => {
    it('fails with StoreUnreachable naming that variable', async () => {
      const error = await startFailure({
        DATABASE_URL: await createTestDatabase('store_unreachable_esdb'),
        EVENT_STORE: 'esdb',
        EVENTSTORE_CONNECTION_STRING: `esdb://${NOTHING_LISTENS}?tls=false`,
      });
      expect(error).toBeInstanceOf(StoreUnreachable);
      expect((error as Error).message).toMatch(
        new RegExp(`^cannot reach EventStoreDB at EVENTSTORE_CONNECTION_STRING=esdb://${NOTHING_LISTENS}\\?tls=false: \\S`),
      );
      expect((error as Error).message).not.toContain('\n');
    });
  });
});

describe('exitOnStartupFailure', () => {
  it('prints a StoreUnreachable as one line, without a stack, and exits with 1', () => {
    const written: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    let exitCodes: unknown[][];
    try {
      exitOnStartupFailure('Idem')(new StoreUnreachable('PostgreSQL', 'DATABASE_URL', 'postgres://u:p@h:5432/d', new Error('boom')));
    } finally {
      exitCodes = exit.mock.calls;
      write.mockRestore();
      exit.mockRestore();
    }
    expect(written).toEqual(['Idem failed to start: cannot reach PostgreSQL at DATABASE_URL=postgres://u:***@h:5432/d: boom\n']);
    expect(exitCodes).toEqual([[1]]);
  });
});
