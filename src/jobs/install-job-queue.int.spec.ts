/**
 * Installing the job queue leaves nothing of graphile-worker's on the pool it was given: its installer
 * put an error listener with graphile's console logger on each client that connected meanwhile, and the
 * api's clients printed graphile's "[core] ERROR" line at every later stall or restart of the database.
 */
import { Pool, type PoolClient } from 'pg';
import { createTestDatabase } from '../../test/harness/test-database';
import { installJobQueue } from './install-job-queue';

describe('installJobQueue', () => {
  let pool: Pool;
  beforeAll(async () => {
    pool = new Pool({ connectionString: await createTestDatabase('install_job_queue'), max: 4 });
  });
  afterAll(() => pool.end());

  it("installs the schema and leaves the pool's clients with no listener of the installer's", async () => {
    // What a checked-out client listens to when nothing but pg has touched it.
    const untouched = new Pool({ connectionString: pool.options.connectionString, max: 1 });
    const bare = await untouched.connect();
    const pgOwn = bare.listenerCount('error');
    bare.release();
    await untouched.end();

    await installJobQueue(pool);
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM information_schema.schemata WHERE schema_name = 'graphile_worker'`);
    expect(rows[0].n).toBe(1);
    // Every client the pool holds now: those the install used, and as many more as it allows.
    const clients: PoolClient[] = [];
    for (let i = 0; i < 4; i++) clients.push(await pool.connect());
    try {
      expect(clients.map((client) => client.listenerCount('error'))).toEqual(clients.map(() => pgOwn));
    } finally {
      for (const client of clients) client.release();
    }
  });
});
