import { Logger } from 'graphile-worker';
import { Client, Pool } from 'pg';
import { createTestDatabase } from '../../test/harness/test-database';
import { waitUntil } from '../../test/harness/wait-until';
import { installJobQueue } from './install-job-queue';
import { LIVENESS_NAMESPACE } from './job-worker-liveness';
import { startJobWorker } from './job-worker';

describe('A job worker', () => {
  let pool: Pool;

  beforeAll(async () => {
    pool = new Pool({ connectionString: await createTestDatabase('job_liveness'), max: 6 });
    await installJobQueue(pool);
  });
  afterAll(async () => {
    await pool.end();
  });

  /** Each liveness session of this database with the slot ids it announced (as lock keys). */
  const livenessSessions = async () =>
    (
      await pool.query<{ pid: number; slots: number }>(
        `SELECT a.pid, count(l.objid)::int AS slots
           FROM pg_stat_activity a
           LEFT JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory' AND l.classid = (${LIVENESS_NAMESPACE})::oid AND l.granted
          WHERE a.application_name = 'idem-job-liveness' AND a.datname = current_database()
          GROUP BY a.pid`,
      )
    ).rows;

  it('announces each of its slots on one liveness session, one query at a time, and the session ends when it stops', async () => {
    // pg 8 warns when a query is sent on a connection still running another (pg 9 refuses it): count
    // the queries sent on a liveness connection while one of its own is still in flight.
    const inFlight = new WeakMap<object, number>();
    let overlapping = 0;
    const query = Client.prototype.query;
    const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      const liveness = (this as unknown as { connectionParameters: { application_name?: string } }).connectionParameters.application_name;
      if (liveness !== 'idem-job-liveness') return (query as (...a: unknown[]) => unknown).apply(this, args);
      if ((inFlight.get(this) ?? 0) > 0) overlapping++;
      inFlight.set(this, (inFlight.get(this) ?? 0) + 1);
      const done = () => inFlight.set(this, inFlight.get(this)! - 1);
      const result = (query as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      void result.then(done, done);
      return result;
    } as never);
    const worker = await startJobWorker({ pool, concurrency: 3, pollIntervalMs: 100, taskList: { noop: async () => undefined } });
    try {
      await waitUntil(livenessSessions, (sessions) => sessions.length === 1 && sessions[0].slots === 3, 10_000);
    } finally {
      await worker.stop();
      spy.mockRestore();
    }
    expect(await livenessSessions()).toEqual([]);
    expect(overlapping).toBe(0);
  });

  describe('whose liveness session ends (a database restart, a cut connection)', () => {
    it('announces new slots on a new session and runs jobs again', async () => {
      const logged: string[] = [];
      const ran: unknown[] = [];
      const worker = await startJobWorker({
        pool,
        concurrency: 2,
        pollIntervalMs: 100,
        logger: new Logger(() => (_level, message) => logged.push(message)),
        taskList: { record: async (payload) => void ran.push(payload) },
      });
      try {
        const [before] = await waitUntil(livenessSessions, (sessions) => sessions.length === 1 && sessions[0].slots === 2, 10_000);
        await pool.query('SELECT pg_terminate_backend($1)', [before.pid]);
        await waitUntil(
          livenessSessions,
          (sessions) => sessions.length === 1 && sessions[0].pid !== before.pid && sessions[0].slots === 2,
          20_000,
        );
        expect(logged.filter((line) => /liveness lost/.test(line))).toHaveLength(1);

        await pool.query(`SELECT graphile_worker.add_job('record', '{"after":"restart"}'::json)`);
        await waitUntil(
          async () => ran,
          (payloads) => payloads.length === 1,
          10_000,
        );
        expect(ran).toEqual([{ after: 'restart' }]);
      } finally {
        await worker.stop();
      }
      expect(await livenessSessions()).toEqual([]);
    });
  });
});
