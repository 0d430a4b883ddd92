/**
 * The sessions opened beside a pool (the projection lock, the pull runs' locks, the job worker's
 * liveness) use the pool's client class: against a PostgreSQL that accepts connections and never
 * answers, taking a lock fails within the handshake deadline instead of hanging its caller for good.
 */
import { Pool } from 'pg';
import { runLocksOn } from '../../modules/contacts/pull-run/run-lock';
import { createTestDatabase } from '../../test/harness/test-database';
import { waitUntil } from '../../test/harness/wait-until';
import { openJobWorkerLiveness } from '../jobs/job-worker-liveness';
import { acquireLocks } from '../subscriptions/projection-lock';
import { clientWithDeadlines } from './answer-deadlines';
import { startBlackHoleProxy, type BlackHoleProxy } from '../../test/harness/black-hole-proxy';

const CONNECT_MS = 1_000;
/** Timers fire late on a busy machine; an answer later than this is a hang, not a late timer. */
const SLACK_MS = 2_000;

let proxy: BlackHoleProxy;
let pool: Pool;

beforeAll(async () => {
  proxy = await startBlackHoleProxy(await createTestDatabase('session_client'));
  pool = new Pool({ connectionString: proxy.url, max: 2, Client: clientWithDeadlines({ connectMs: CONNECT_MS, queryMs: 1_000 }) });
});
afterAll(async () => {
  proxy.forward();
  await pool.end();
  await proxy.close();
});

async function msToFail(work: () => Promise<unknown>): Promise<number> {
  const started = Date.now();
  await expect(work()).rejects.toThrow();
  return Date.now() - started;
}

describe('a session beside a pool, on a PostgreSQL that stopped answering', () => {
  beforeAll(() => proxy.blackHole());
  afterAll(() => proxy.forward());

  it.each([
    ['the projection lock', () => acquireLocks(pool.options, ['orders@1'], { wait: false })],
    ["a pull run's lock", () => runLocksOn(pool).take('run.session-client')],
    ["the job worker's liveness session", () => openJobWorkerLiveness(pool.options)],
  ])('%s fails within the handshake deadline', async (_name, take) => {
    expect(await msToFail(take)).toBeLessThan(CONNECT_MS + SLACK_MS);
  });
});

describe('the same sessions once it answers again', () => {
  // After a stall the pool's class lets one handshake through a second (answer-deadlines.ts), so the
  // first tries may still fail fast; their callers (the supervisor, the sweep) try again.
  const soon = <T>(take: () => Promise<T>) =>
    waitUntil(
      () => take().catch(() => undefined),
      (taken) => taken !== undefined,
      10_000,
    );

  it('take their locks', async () => {
    const lock = await soon(() => acquireLocks(pool.options, ['orders@1'], { wait: false }));
    await lock!.release();
    const run = await soon(() => runLocksOn(pool).take('run.session-client'));
    await run!.release();
  });
});
