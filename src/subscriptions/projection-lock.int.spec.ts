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
});
