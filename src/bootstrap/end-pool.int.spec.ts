/**
 * A stop ends the pools and then stops PostgreSQL: by then the server must have closed every session
 * of the pool, or its shutdown terminates them and each client reports the error.
 */
import { Client, Pool } from 'pg';
import { createTestDatabase } from '../../test/harness/test-database';
import { endPool } from './end-pool';

let url: string;
let observer: Client;
beforeAll(async () => {
  url = await createTestDatabase('end_pool');
  observer = new Client({ connectionString: url });
  await observer.connect();
});
afterAll(() => observer.end());

const sessionsOf = async (applicationName: string) =>
  Number(
    (await observer.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1`, [applicationName]))
      .rows[0].n,
  );

describe('endPool', () => {
  it('resolves only once the server has closed every session of the pool', async () => {
    for (let round = 0; round < 5; round++) {
      const applicationName = `idem-end-pool-${round}`;
      const pool = new Pool({ connectionString: url, max: 8, application_name: applicationName });
      // Eight sessions at once, each busy for a moment, so the pool holds eight connections.
      await Promise.all(Array.from({ length: 8 }, () => pool.query('SELECT pg_sleep(0.05)')));
      expect(await sessionsOf(applicationName)).toBe(8);

      await endPool(pool);
      expect({ round, sessions: await sessionsOf(applicationName) }).toEqual({ round, sessions: 0 });
    }
  });

  it('ends a pool that never connected at once', async () => {
    const pool = new Pool({ connectionString: url, max: 2 });
    await endPool(pool);
    expect(pool.ended).toBe(true);
  });
});
