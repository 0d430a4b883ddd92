/**
 * The deadlines of a pool's connections against a real PostgreSQL behind a proxy that can black-hole
 * (accept, never forward): what a paused server or a partition looks like to the client.
 */
import { Pool } from 'pg';
import { createTestDatabase } from '../../test/harness/test-database';
import { waitUntil } from '../../test/harness/wait-until';
import { isStoreUnavailable } from '../event-store/store-unavailable';
import { clientWithDeadlines, type AnswerDeadlines } from './answer-deadlines';
import { startBlackHoleProxy, type BlackHoleProxy } from '../../test/harness/black-hole-proxy';
import { surviveLostConnections } from './lost-connections';
import { PostgresNotAnswering } from './not-answering';

const DEADLINES: AnswerDeadlines = { connectMs: 1_000, queryMs: 1_000 };
/** Timers fire late on a busy machine; an answer later than this is a hang, not a late timer. */
const SLACK_MS = 1_000;

const failureOf = async (work: Promise<unknown>): Promise<{ error: unknown; ms: number }> => {
  const started = Date.now();
  try {
    await work;
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
  throw new Error('expected the statement to fail');
};

const pid = async (pool: Pool) => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;

describe('a pool whose connections have answer deadlines', () => {
  let url: string;
  let proxy: BlackHoleProxy;
  let pool: Pool;
  const open = (max = 10) =>
    (pool = surviveLostConnections(new Pool({ connectionString: proxy.url, max, Client: clientWithDeadlines(DEADLINES) })));

  beforeAll(async () => {
    url = await createTestDatabase('answer_deadlines');
  });
  beforeEach(async () => {
    proxy = await startBlackHoleProxy(url);
  });
  afterEach(async () => {
    proxy.forward();
    await pool.end();
    await proxy.close();
  });

  it('keeps a statement PostgreSQL is working on, long past the deadline', async () => {
    open();
    const { rows } = await pool.query<{ done: boolean }>('SELECT true AS done FROM pg_sleep(3)');
    expect(rows).toEqual([{ done: true }]);
  });

  it('keeps a statement waiting for a lock past the deadline', async () => {
    open();
    const holder = await pool.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(4242)`);
      const waiting = pool.query(`SELECT true AS taken FROM pg_advisory_lock(4242)`);
      // The lock is given up only once three deadlines have passed over its waiter.
      await pool.query('SELECT pg_sleep(3)');
      await holder.query(`SELECT pg_advisory_unlock(4242)`);
      expect((await waiting).rows).toEqual([{ taken: true }]);
    } finally {
      holder.release();
    }
  });

  it('fails an unanswered statement within the deadline as unavailable, and never lends its connection again', async () => {
    open();
    const before = await pid(pool);
    proxy.blackHole();
    const { error, ms } = await failureOf(pool.query('SELECT 1'));
    expect(error).toBeInstanceOf(PostgresNotAnswering);
    expect((error as Error).message).toMatch(/did not answer a statement within 1000 ms/);
    expect(isStoreUnavailable(error)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(DEADLINES.queryMs - 100);
    expect(ms).toBeLessThan(DEADLINES.queryMs + SLACK_MS);
    expect(pool.totalCount).toBe(0);

    proxy.forward();
    expect(await pid(pool)).not.toBe(before);
  });

  it('drops a connection whose answer was lost while PostgreSQL answers, without taking the server for stalled', async () => {
    open();
    await pid(pool);
    proxy.loseAnswers();
    const { error, ms } = await failureOf(pool.query('SELECT 1'));
    expect((error as Error).message).toMatch(/answer to a statement did not arrive within 1000 ms \(its backend is no longer running it\)/);
    expect(isStoreUnavailable(error)).toBe(true);
    expect(ms).toBeLessThan(DEADLINES.queryMs + SLACK_MS);
    // A new connection is made at once: nothing holds the next caller back.
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('fails a handshake that is not answered within connectMs, then the others at once while one attempt is under way', async () => {
    open();
    proxy.blackHole();
    const first = await failureOf(pool.query('SELECT 1'));
    expect((first.error as Error).message).toMatch(/did not complete a new connection within 1000 ms/);
    expect(isStoreUnavailable(first.error)).toBe(true);
    expect(first.ms).toBeLessThan(DEADLINES.connectMs + SLACK_MS);

    const attempt = failureOf(pool.query('SELECT 1'));
    const refused = await failureOf(pool.query('SELECT 1'));
    expect((refused.error as Error).message).toMatch(/connections are tried again one at a time/);
    expect(isStoreUnavailable(refused.error)).toBe(true);
    expect(refused.ms).toBeLessThan(200);
    expect(((await attempt).error as Error).message).toMatch(/did not complete a new connection/);
    // Right after a failed attempt, the next one waits its turn: the caller does not.
    expect((await failureOf(pool.query('SELECT 1'))).ms).toBeLessThan(200);

    proxy.forward();
    const answered = await waitUntil(
      () => pool.query('SELECT 1 AS one').catch((error: Error) => error),
      (result) => !(result instanceof Error),
      5_000,
    );
    expect(answered).toMatchObject({ rows: [{ one: 1 }] });
  });

  it('drops the idle connections too once PostgreSQL is found not answering, and connects afresh after', async () => {
    open();
    const clients = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
    clients.forEach((client) => client.release());
    expect(pool.idleCount).toBe(3);
    proxy.blackHole();
    await failureOf(pool.query('SELECT 1'));
    expect(pool.totalCount).toBe(0);
    proxy.forward();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('does not count the wait for a free connection: 200 statements on 10 connections, twice the deadline in all, none fails', async () => {
    open(10);
    const results = await Promise.allSettled(Array.from({ length: 200 }, () => pool.query('SELECT pg_sleep(0.1)')));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
  });
});
