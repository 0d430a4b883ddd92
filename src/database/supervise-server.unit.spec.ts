import { restartDelayMs, STABLE_AFTER_MS, superviseServer, type RunningServer } from './supervise-server';

/** A server that exits when the test says so; stop() makes it exit as a graceful stop does. */
class FakeServer implements RunningServer {
  stopped = 0;
  private exit!: (how: string) => void;
  readonly exited = new Promise<string>((resolve) => (this.exit = resolve));
  crash(how = 'signal SIGKILL') {
    this.exit(how);
  }
  async stop() {
    this.stopped += 1;
    this.exit('exit code 0');
  }
}

/** A clock the test moves: each wait is recorded and ends when released (or cancelled by stop()). */
function manualClock() {
  let now = 0;
  const waits: Array<{ ms: number; release: () => void }> = [];
  return {
    waits,
    advance: (ms: number) => (now += ms),
    clock: {
      now: () => now,
      wait: (ms: number, cancelled: Promise<void>) =>
        new Promise<void>((resolve) => {
          waits.push({ ms, release: resolve });
          void cancelled.then(() => resolve());
        }),
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function harness(starts: Array<FakeServer | Error>) {
  const { clock, waits, advance } = manualClock();
  const lines: string[] = [];
  const started: FakeServer[] = [];
  const start = jest.fn(async () => {
    const next = starts.shift() ?? new FakeServer();
    if (next instanceof Error) throw next;
    started.push(next);
    return next;
  });
  const supervise = () => superviseServer({ name: 'db', start, clock, log: (level, message) => lines.push(`${level}: ${message}`) });
  return { start, started, waits, advance, lines, supervise };
}

describe('superviseServer', () => {
  it('waits 1 s, then doubles the wait up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  describe('when the server exits unasked', () => {
    it('logs it, waits, starts it again and watches the new one', async () => {
      const h = harness([]);
      const supervised = await h.supervise();
      h.started[0].crash();
      await settle();
      expect(h.lines).toEqual(['error: db exited unexpectedly (signal SIGKILL); starting it again in 1000 ms (attempt 1)']);
      expect(h.start).toHaveBeenCalledTimes(1);
      h.waits[0].release();
      await settle();
      expect(h.start).toHaveBeenCalledTimes(2);
      expect(h.lines[1]).toMatch(/^info: db is running again/);

      h.advance(STABLE_AFTER_MS);
      h.started[1].crash('exit code 1');
      await settle();
      expect(h.waits[1].ms).toBe(1000); // it had run long enough: the backoff starts over
      h.waits[1].release();
      await settle();
      expect(h.start).toHaveBeenCalledTimes(3);
      await supervised.stop();
      expect(h.started[2].stopped).toBe(1);
    });

    it('retries a start that fails with a growing wait, and a crash soon after a restart keeps growing it', async () => {
      const h = harness([new FakeServer(), new Error('port 5432 is taken by another process')]);
      const supervised = await h.supervise();
      h.started[0].crash();
      await settle();
      h.waits[0].release();
      await settle();
      expect(h.lines[1]).toBe(
        'error: db exited unexpectedly (restart failed: port 5432 is taken by another process); starting it again in 2000 ms (attempt 2)',
      );
      h.waits[1].release();
      await settle();
      h.started[1].crash();
      await settle();
      expect(h.waits.map((wait) => wait.ms)).toEqual([1000, 2000, 4000]);
      await supervised.stop();
    });
  });

  describe('when the process stops it', () => {
    it('stops the server and starts nothing after its exit', async () => {
      const h = harness([]);
      const supervised = await h.supervise();
      await supervised.stop();
      await settle();
      expect(h.started[0].stopped).toBe(1);
      expect(h.start).toHaveBeenCalledTimes(1);
      expect(h.lines).toEqual([]);
    });

    it('calls off a restart that is waiting', async () => {
      const h = harness([]);
      const supervised = await h.supervise();
      h.started[0].crash();
      await settle();
      await supervised.stop();
      await settle();
      expect(h.start).toHaveBeenCalledTimes(1);
    });
  });

  it('rejects when the first start fails, as an unsupervised start does', async () => {
    const h = harness([new Error('disk full')]);
    await expect(h.supervise()).rejects.toThrow('disk full');
  });
});
