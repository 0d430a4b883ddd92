/**
 * Keeps a server this process owns running: when it exits without having been asked to (a crash, the
 * OOM killer, `kill -9`), it is started again with backoff, logged, until it is up or the process
 * stops it. The embedded PostgreSQL is the one such server (embedded-postgres.ts): without this, the
 * api answered 503 and the worker and projections retried for ever until someone restarted Idem.
 * Clients reconnect by themselves (the pools drop the broken connections, lost-connections.ts).
 */

/** One start of the server: how it ended, and how to stop it while it runs. */
export interface RunningServer {
  /** Resolves, with a description such as `signal SIGKILL`, once the server has exited for any reason. */
  readonly exited: Promise<string>;
  /** Asks the server to stop and resolves once it has; resolves at once when it has exited already. */
  stop(): Promise<void>;
}

export interface SuperviseOptions {
  /** What is supervised, for the log lines ("embedded PostgreSQL on 127.0.0.1:5432"). */
  name: string;
  /** Starts the server (again); rejects when it cannot, and is then tried again after the next delay. */
  start(): Promise<RunningServer>;
  log(level: 'error' | 'warn' | 'info', message: string): void;
  /** Injected by tests; defaults to the real clock. */
  clock?: { now(): number; wait(ms: number, cancelled: Promise<void>): Promise<void> };
}

export interface Supervised {
  /** Stops the server for good: no restart follows, a pending one is called off. */
  stop(): Promise<void>;
}

/** A server that ran this long before it exited starts from the shortest delay again. */
export const STABLE_AFTER_MS = 60_000;
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;

/**
 * The wait before restart attempt `attempt` (1 for the first after an exit): 1 s, doubling, at most
 * 30 s, so a server that cannot start (disk full, port taken) is retried without a busy loop.
 */
export function restartDelayMs(attempt: number): number {
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempt - 1));
}

const realClock = {
  now: () => Date.now(),
  wait: (ms: number, cancelled: Promise<void>) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      void cancelled.then(() => {
        clearTimeout(timer);
        resolve();
      });
    }),
};

/** Starts the server once (a failure rejects, as before supervision) and restarts it whenever it exits unasked. */
export async function superviseServer(options: SuperviseOptions): Promise<Supervised> {
  const { name, log, clock = realClock } = options;
  let stopping = false;
  let cancel!: () => void;
  const cancelled = new Promise<void>((resolve) => (cancel = resolve));
  let current: RunningServer | undefined = await options.start();
  /** The restart in progress, if any: stop() waits for it, then stops what it started. */
  let restarting: Promise<void> | undefined;
  /** Attempts since the server was last stable, carried over a crash soon after a restart. */
  let attempt = 0;

  const watch = (server: RunningServer, startedAt: number) => {
    void server.exited.then((how) => {
      if (stopping || server !== current) return;
      current = undefined;
      if (clock.now() - startedAt >= STABLE_AFTER_MS) attempt = 0;
      restarting = restart(how).finally(() => (restarting = undefined));
    });
  };

  const restart = async (how: string) => {
    for (;;) {
      attempt += 1;
      const delay = restartDelayMs(attempt);
      log('error', `${name} exited unexpectedly (${how}); starting it again in ${delay} ms (attempt ${attempt})`);
      await clock.wait(delay, cancelled);
      if (stopping) return;
      try {
        const server = await options.start();
        current = server;
        if (stopping) return;
        log('info', `${name} is running again (attempt ${attempt}); connections are re-established as they are needed`);
        watch(server, clock.now());
        return;
      } catch (error) {
        how = `restart failed: ${error instanceof Error ? error.message.trimEnd() : String(error)}`;
      }
    }
  };

  watch(current, clock.now());
  return {
    async stop() {
      stopping = true;
      cancel();
      await restarting;
      const server = current;
      current = undefined;
      await server?.stop();
    },
  };
}
