/**
 * A projection's retry delay doubles while its failures follow one another (a stalled or restarting
 * database), and starts over once it has committed a batch again: after a 30 s PostgreSQL stall the
 * delay had grown to its 30 s cap, and the next passing failure, minutes later, left the projection
 * (and the charge jobs its reactor queues) idle for 30 s.
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import type { Projection } from './projection';
import { startProjections, type RunningProjections } from './start-projections';
import { testEvent } from '../../test/contracts/test-events';
import { createProjectionDatabase, waitFor, type ProjectionDatabase } from '../../test/projections/projection-harness';

const INITIAL_MS = 50;
const MAX_MS = 4_000;

describe('a projection that failed for a while, then committed again', () => {
  let db: ProjectionDatabase;
  let running: RunningProjections | undefined;
  beforeAll(async () => {
    db = await createProjectionDatabase('projection_backoff');
  });
  afterAll(async () => {
    await running?.stop();
    await db.close();
  });

  it('retries its next failure after the first delay, not after the delay the earlier failures grew to', async () => {
    const stream = `flaky-${randomUUID()}`;
    let failuresLeft = 0;
    // The outage's failures are the pg client's lost connection; the later one is a bug of the projection's.
    let failure = () => new Error('Connection terminated unexpectedly');
    const logged: Array<{ level: string; error: unknown }> = [];
    const failedAt: number[] = [];
    const handledAt = new Map<string, number>();
    const flaky: Projection = {
      name: 'test_flaky_reactor',
      kind: 'reactor',
      filter: {},
      handle(events) {
        const mine = events.filter((e) => e.stream === stream);
        if (mine.length > 0 && failuresLeft > 0) {
          failuresLeft--;
          failedAt.push(performance.now());
          return Promise.reject(failure());
        }
        for (const e of mine) handledAt.set(e.id, performance.now());
        return Promise.resolve();
      },
    };
    running = await startProjections({
      store: db.store,
      pool: db.pool,
      readModels: [],
      reactors: [flaky],
      retryDelayMs: { initial: INITIAL_MS, max: MAX_MS },
      log: (level, message, error) => level !== 'info' && message.includes(flaky.name) && logged.push({ level, error }),
    });

    // An outage: seven failures in a row grow the delay to its cap (50 · 2^7 > 4,000 ms).
    failuresLeft = 7;
    const during = testEvent('DuringOutage');
    const first = await db.store.append(stream, [during], 'no_stream');
    const firstId = during.id;
    await waitFor('the event handled once the outage is over', async () => handledAt.has(firstId), 30_000);
    expect(failedAt).toHaveLength(7);

    // A store that does not answer is retried and logged as a warning, each time.
    expect(logged.map(({ level }) => level)).toEqual(Array(7).fill('warn'));

    // One passing failure later on: it is retried after about the first delay.
    failure = () => new TypeError("Cannot read properties of undefined (reading 'amount')");
    failuresLeft = 1;
    const after = testEvent('AfterRecovery');
    await db.store.append(stream, [after], first.nextRevision);
    const secondId = after.id;
    await waitFor('the second event handled', async () => handledAt.has(secondId), 30_000);
    expect(failedAt).toHaveLength(8);
    expect(handledAt.get(secondId)! - failedAt[7]).toBeLessThan(MAX_MS / 2);
    // What no retry of the store cures is an error.
    expect(logged.at(-1)).toEqual({ level: 'error', error: expect.any(TypeError) });
  }, 60_000);
});
