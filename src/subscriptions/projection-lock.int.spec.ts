import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createTestDatabase } from '../../test/harness/test-database';
import { acquireLocks, type HeldLock } from './projection-lock';

/** Long enough for a free lock to be taken many times over; a wait that outlasts it is stuck on the lock. */
const STUCK_AFTER_MS = 5_000;

let connection: { connectionString: string };
beforeAll(async () => {
  connection = { connectionString: await createTestDatabase('projection_lock') };
});

describe('acquireLocks', () => {
  describe('when its signal aborts while a runner stands by for a lock held elsewhere', () => {
    let holder: HeldLock | undefined;
    beforeEach(async () => {
      holder = await acquireLocks(connection, ['orders@1'], { wait: false });
    });
    afterEach(() => holder?.release());

    // The stop of a standby process: its supervisor aborts while it waits, or just before it asks.
    it.each([
      ['before it is called', (controller: AbortController) => controller.abort()],
      ['while it connects', () => undefined],
    ])('gives up without the lock when the signal aborted %s', async (_, abortBefore) => {
      expect(holder).toBeDefined();
      const controller = new AbortController();
      abortBefore(controller);
      const waiting = acquireLocks(connection, ['orders@1'], { wait: true, signal: controller.signal });
      controller.abort(); // the call is now awaiting its connection: no query has been sent yet
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<'stuck'>((resolve) => (timer = setTimeout(() => resolve('stuck'), STUCK_AFTER_MS)));
      try {
        expect(await Promise.race([waiting, stuck])).toBeUndefined();
      } finally {
        clearTimeout(timer);
        // Whatever happened, do not leave a session blocked on the lock behind the test.
        await holder?.release();
        holder = undefined;
        await (await waiting)?.release();
      }
    });
  });

  describe('held by a process that stops running without dying (SIGSTOP: a frozen container, a paused VM)', () => {
    // Touched every 750 ms: a holder starved of CPU for 3 s by a loaded machine would lose it too.
    const SILENT_FOR_MS = 3_000;
    let holder: ChildProcess | undefined;
    afterEach(() => {
      holder?.kill('SIGCONT');
      holder?.kill('SIGKILL');
    });

    /** The holder's reports, in order, as they arrive. */
    function startHolder(key: string) {
      const child = spawn(
        process.execPath,
        ['-r', join(__dirname, '..', '..', 'bench', 'lib', 'register.js'), join(__dirname, 'projection-lock.process.ts')],
        {
          env: { ...process.env, DATABASE_URL: connection.connectionString, LOCK_KEY: key, SILENT_FOR_MS: String(SILENT_FOR_MS) },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const next = async () => JSON.parse(String((await lines.next()).value)) as { event: string; reason?: string };
      return { child, next };
    }

    it('loses the lock to a standby once it has been silent for its limit, and learns it lost it when it runs again', async () => {
      const started = startHolder('stopped@1');
      holder = started.child;
      expect(await started.next()).toEqual({ event: 'held' });
      // Held and running: a standby cannot take it, however long the holder keeps touching its session.
      const early = await acquireLocks(connection, ['stopped@1'], { wait: false });
      expect(early).toBeUndefined();

      holder.kill('SIGSTOP');
      const stoppedAt = Date.now();
      const standby = await acquireLocks(connection, ['stopped@1'], { wait: true });
      const waitedMs = Date.now() - stoppedAt;
      try {
        expect(standby).toBeDefined();
        // Not before the holder was silent for its limit (less the quarter it may have touched it in).
        expect(waitedMs).toBeGreaterThanOrEqual((SILENT_FOR_MS * 3) / 4);
        holder.kill('SIGCONT');
        expect(await started.next()).toMatchObject({ event: 'lost' });
      } finally {
        await standby?.release();
      }
    }, 30_000);

    it('keeps the lock while it runs, for many times its silence limit', async () => {
      const started = startHolder('running@1');
      holder = started.child;
      expect(await started.next()).toEqual({ event: 'held' });
      const controller = new AbortController();
      const standby = acquireLocks(connection, ['running@1'], { wait: true, signal: controller.signal });
      let timer: NodeJS.Timeout | undefined;
      const stillHeld = new Promise<'still held'>((resolve) => (timer = setTimeout(() => resolve('still held'), 4 * SILENT_FOR_MS)));
      try {
        expect(await Promise.race([standby, stillHeld])).toBe('still held');
      } finally {
        clearTimeout(timer);
        controller.abort();
        await (await standby)?.release();
      }
    }, 30_000);
  });
});
