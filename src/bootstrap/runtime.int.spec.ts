/**
 * A pool opened by the runtime with `settings` gives every one of its sessions those planner and
 * session defaults (the job queue's pool relies on it), and leaves the other pools as they were.
 */
import { createTestDatabase } from '../../test/harness/test-database';
import { loadConfig } from '../config/config';
import { startRuntime, type Runtime } from './runtime';

let runtime: Runtime;

beforeAll(async () => {
  runtime = await startRuntime(loadConfig({ DATABASE_URL: await createTestDatabase('runtime_pools'), LOG_LEVEL: 'error' }));
});
afterAll(() => runtime.close());

it('opens pools whose sessions carry the given settings', async () => {
  const tuned = runtime.openPool({
    max: 3,
    applicationName: 'idem-test-tuned',
    settings: { enable_bitmapscan: 'off', enable_sort: 'off' },
  });
  try {
    // Three sessions at once, so every connection of the pool is asked, not just the first one.
    const answers = await Promise.all(
      [0, 1, 2].map(async () => {
        const client = await tuned.connect();
        try {
          const { rows } = await client.query<{ bitmap: string; sort: string; app: string }>(
            `SELECT current_setting('enable_bitmapscan') AS bitmap, current_setting('enable_sort') AS sort, current_setting('application_name') AS app`,
          );
          return rows[0];
        } finally {
          client.release();
        }
      }),
    );
    expect(answers).toEqual(Array(3).fill({ bitmap: 'off', sort: 'off', app: 'idem-test-tuned' }));
    const { rows } = await runtime.pool.query<{ bitmap: string }>(`SELECT current_setting('enable_bitmapscan') AS bitmap`);
    expect(rows[0].bitmap).toBe('on');
  } finally {
    await tuned.end();
  }
});
