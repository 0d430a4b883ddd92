import { Logger } from 'graphile-worker';
import { Pool } from 'pg';
import { createTestDatabase } from '../../test/harness/test-database';
import { enqueueInTransaction, enqueueManyInTransaction } from './enqueue-in-transaction';
import { installJobQueue } from './install-job-queue';
import { startJobWorker } from './job-worker';

describe('Jobs enqueued in a transaction', () => {
  let pool: Pool;

  beforeAll(async () => {
    pool = new Pool({ connectionString: await createTestDatabase('jobs'), max: 6 });
    await Promise.all([installJobQueue(pool), installJobQueue(pool)]); // concurrent installs are safe
  });
  afterAll(async () => {
    await pool.end();
  });

  async function inTransaction(work: (client: import('pg').PoolClient) => Promise<void>, outcome: 'COMMIT' | 'ROLLBACK') {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await work(client);
      await client.query(outcome);
    } finally {
      client.release();
    }
  }

  const jobs = async (key: string) =>
    (await pool.query(`SELECT payload, revision FROM graphile_worker._private_jobs WHERE key = $1`, [key])).rows;

  it('exist only if the transaction commits', async () => {
    await inTransaction((client) => enqueueInTransaction(client, 'noop', { n: 1 }, { jobKey: 'rolled-back' }), 'ROLLBACK');
    await inTransaction((client) => enqueueInTransaction(client, 'noop', { n: 1 }, { jobKey: 'committed' }), 'COMMIT');
    expect(await jobs('rolled-back')).toEqual([]);
    expect(await jobs('committed')).toEqual([{ payload: { n: 1 }, revision: 0 }]);
  });

  it('replace a waiting job with the same key instead of adding one, also within one batch', async () => {
    await inTransaction(
      (client) =>
        enqueueManyInTransaction(client, [
          { task: 'noop', payload: { n: 1 }, options: { jobKey: 'same' } },
          { task: 'noop', payload: { n: 2 }, options: { jobKey: 'same' } },
        ]),
      'COMMIT',
    );
    await inTransaction((client) => enqueueInTransaction(client, 'noop', { n: 3 }, { jobKey: 'same' }), 'COMMIT');
    expect(await jobs('same')).toEqual([{ payload: { n: 3 }, revision: 1 }]);
  });

  it('are run by the job worker', async () => {
    const done: unknown[] = [];
    let finished!: () => void;
    const ran = new Promise<void>((resolve) => (finished = resolve));
    await inTransaction((client) => enqueueInTransaction(client, 'record', { hello: 'world' }), 'COMMIT');
    const logged: string[] = [];
    const worker = await startJobWorker({
      pool,
      concurrency: 1,
      pollIntervalMs: 100,
      logger: new Logger(() => (_level, message) => logged.push(message)),
      taskList: {
        record: async (payload) => {
          done.push(payload);
          finished();
        },
        noop: async () => undefined,
      },
    });
    try {
      await ran;
    } finally {
      await worker.stop();
    }
    expect(done).toEqual([{ hello: 'world' }]);
    // Schedules are Idem's own: the queue looks for no crontab file (it used to say it found none).
    expect(logged.filter((line) => /crontab/i.test(line))).toEqual([]);
  });
});
