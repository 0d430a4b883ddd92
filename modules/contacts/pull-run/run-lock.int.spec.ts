/**
 * A run's lock is its own, whatever other runs' ids hash to (run-lock.ts): it was keyed by the run id's
 * 32-bit `hashtext`, so two runs whose hashtexts collide shared one lock, and the second run's driver
 * was refused (or waited) while the first one's drove. And during a rolling upgrade a process of the
 * version before (which takes that old key exclusively) and a driver of this one still exclude each other.
 */
import { Client, Pool } from 'pg';
import { createTestDatabase } from '../../../test/harness/test-database';
import { waitFor } from '../../../test/projections/projection-harness';
import { runLockRows, runLocksOn, type RunLocks } from './run-lock';

/**
 * Two run ids with one hashtext (-938119272 on PostgreSQL 18, little-endian): the first pair found by
 * `SELECT min(n), max(n) FROM generate_series(1, 200000) n GROUP BY hashtext('run.collide.' || n)
 * HAVING count(*) > 1`. Checked below, so a server hashing otherwise fails the test instead of passing it.
 */
const COLLIDING = ['run.collide.91476', 'run.collide.145143'] as const;

let url: string;
let pool: Pool;
let locks: RunLocks;
beforeAll(async () => {
  url = await createTestDatabase('contacts_run_lock');
  pool = new Pool({ connectionString: url, max: 4 });
  locks = runLocksOn(pool);
});
afterAll(() => pool.end());

/** A session of the version before: its driver took `hashtext(namespace), hashtext(runId)` exclusively. */
async function oldVersionSession() {
  const client = new Client({ connectionString: url });
  await client.connect();
  const key = `hashtext('idem.pull-run'), hashtext($1)`;
  return {
    tryTake: async (runId: string) =>
      (await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${key}) AS ok`, [runId])).rows[0].ok,
    end: () => client.end(),
  };
}

describe('two runs whose run ids have one hashtext', () => {
  it('collide in hashtext indeed', async () => {
    const { rows } = await pool.query<{ a: number; b: number }>('SELECT hashtext($1) AS a, hashtext($2) AS b', [...COLLIDING]);
    expect(rows[0].a).toBe(rows[0].b);
  });

  it('are held by two drivers at once, each seen as its own holder', async () => {
    const [a, b] = COLLIDING;
    const first = await locks.take(a);
    const second = await locks.take(b);
    try {
      expect(first).toBeDefined();
      expect(second).toBeDefined();
      expect(await locks.take(a)).toBeUndefined();
      expect(await locks.take(b)).toBeUndefined();
      await first!.release();
      expect(await locks.holder(a)).toBeUndefined();
      expect(await locks.holder(b)).toMatchObject({ by: expect.stringMatching(` pid ${process.pid}$`) });
    } finally {
      await first?.release();
      await second?.release();
    }
    expect(await locks.holder(b)).toBeUndefined();
  });

  it('are waited for apart: a driver waiting for one takes it while the other is held', async () => {
    const [a, b] = COLLIDING;
    const held = (await locks.take(a))!;
    try {
      // The timeout only bounds the failure (the old key made this wait last as long as `a` is held).
      const waited = await locks.waitFor(b, AbortSignal.timeout(10_000));
      expect(waited).toBeDefined();
      await waited!.release();
    } finally {
      await held.release();
    }
  });
});

describe("a run's lock during a rolling upgrade", () => {
  const runId = 'run.rolling-upgrade';

  it('is not taken while a process of the version before drives the run, and waited for until it lets go', async () => {
    const old = await oldVersionSession();
    try {
      expect(await old.tryTake(runId)).toBe(true);
      expect(await locks.take(runId)).toBeUndefined();

      const waiting = locks.waitFor(runId, new AbortController().signal);
      const lock = runLockRows(runId);
      // Waiting on the old key, which it takes first; the new key is not even asked for yet.
      await waitFor('the waiter to queue behind the old version', async () => {
        const { rows } = await pool.query(
          `SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND NOT l.granted AND l.objsubid = 2
              AND l.classid = hashtext('idem.pull-run')::oid AND l.objid = hashtext($1)::oid`,
          [runId],
        );
        return rows.length === 1;
      });
      expect((await pool.query(`SELECT 1 FROM pg_locks l WHERE ${lock.sql}`, lock.params)).rows).toEqual([]);
      await old.end();
      const held = await waiting;
      expect(held).toBeDefined();
      await held!.release();
    } finally {
      await old.end().catch(() => undefined);
    }
  });

  it('keeps a process of the version before out while a driver of this one holds the run', async () => {
    const held = (await locks.take(runId))!;
    const old = await oldVersionSession();
    try {
      expect(await old.tryTake(runId)).toBe(false);
      await held.release();
      expect(await old.tryTake(runId)).toBe(true);
    } finally {
      await held.release();
      await old.end();
    }
  });
});
