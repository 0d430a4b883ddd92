/**
 * The compiled `idem` (dist/src/cli.js, built by `npm test` before jest) on a database that neither
 * the api nor a worker ever opened: the read commands answer from empty read models instead of
 * failing on a missing table, because every process prepares the database the same way
 * (prepareDatabase: migrations, then version 1 of each read model).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'pg';
import { createTestDatabase } from '../harness/test-database';

const CLI = join(__dirname, '..', '..', 'dist', 'src', 'cli.js');
const run = promisify(execFile);

jest.setTimeout(60_000);

async function idem(databaseUrl: string, ...args: string[]) {
  const env = { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' };
  return run(process.execPath, [CLI, ...args], { env });
}

describe('idem on a database no api or worker ever opened', () => {
  it('lists no import runs (exit 0, only the count printed) and leaves every read model installed', async () => {
    const databaseUrl = await createTestDatabase('cli_fresh');
    const { stdout, stderr } = await idem(databaseUrl, 'sync', 'list');
    expect({ stdout, stderr }).toEqual({ stdout: '', stderr: '0 import runs\n' });

    const pool = new Pool({ connectionString: databaseUrl, max: 1 });
    try {
      const { rows } = await pool.query(`SELECT count(*)::int AS runs FROM sync_runs`);
      expect(rows).toEqual([{ runs: 0 }]);
    } finally {
      await pool.end();
    }
  });

  it('refuses an unknown status with the statuses it knows (exit 2, a usage error) before touching the database', async () => {
    const unreachable = 'postgres://idem@127.0.0.1:1/nowhere';
    await expect(idem(unreachable, 'sync', 'list', '--status', 'sleeping')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('status must be one of running, completed, needs_review'),
    });
  });
});
