/**
 * The infrastructure one Idem process needs, whatever it runs (api, worker, CLI): the PostgreSQL
 * server (embedded when no DATABASE_URL is set), a pool, and the event store, migrated.
 * `close()` undoes it in reverse order.
 */
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Pool, type PoolConfig } from 'pg';
import type { IdemConfig } from '../config/config';
import { ensureDatabase } from '../database/create-database';
import { startEmbeddedPostgres, type EmbeddedCluster } from '../database/embedded-postgres';
import type { EventStore } from '../event-store/event-store.port';
import { PostgresEventStore } from '../event-store/postgres/postgres.event-store';
import { surviveLostConnections } from '../database/lost-connections';
import { clientWithDeadlines, type AnswerDeadlines } from '../database/answer-deadlines';
import { endPool } from './end-pool';
import { ensureReachable } from './store-unreachable';

export interface PoolOptions {
  max: number;
  applicationName: string;
  /** Session defaults for every connection of the pool (planner settings and the like). */
  settings?: Record<string, string>;
}

export interface Runtime {
  config: IdemConfig;
  databaseUrl: string;
  pool: Pool;
  eventStore: EventStore;
  embedded: EmbeddedCluster | undefined;
  /** The handshake and statement deadlines of the runtime's pools (IDEM_DB_CONNECT_TIMEOUT, IDEM_DB_QUERY_DEADLINE). */
  answerDeadlines: AnswerDeadlines;
  /**
   * Another pool on the same database and connection path, for work that must not queue behind the
   * api's requests (the job queue). The caller ends it.
   */
  openPool(options: PoolOptions): Pool;
  close(): Promise<void>;
}

const EMBEDDED_DATABASE = 'idem';
const databaseLogger = new Logger('Database');
const eventStoreLogger = new Logger('EventStore');

function logDatabase(level: 'error' | 'warn' | 'info', message: string): void {
  if (level === 'error') databaseLogger.error(message);
  else if (level === 'warn') databaseLogger.warn(message);
  else databaseLogger.log(message);
}
const SUBSCRIPTION_APPEND_WAKE_DELAY_MS = 10;

export async function startRuntime(config: IdemConfig, options: { poolSize?: number } = {}): Promise<Runtime> {
  let embedded: EmbeddedCluster | undefined;
  let databaseUrl = config.databaseUrl;
  let socketDir: string | undefined;
  if (!databaseUrl) {
    socketDir = embeddedSocketDir(config.dataDir);
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      settings: socketDir ? { unix_socket_directories: socketDir } : {},
      // Ours to keep running: a server killed under the service is started again (supervise-server.ts).
      restartLog: logDatabase,
    });
  }
  // From here on a failure must not leave the embedded server running (it would hold the data
  // directory, so the next start fails too) nor the pool's connections open.
  let pool: Pool | undefined;
  try {
    if (embedded) {
      await ensureDatabase(embedded.urlFor('postgres'), EMBEDDED_DATABASE);
      databaseUrl = embedded.urlFor(EMBEDDED_DATABASE);
    }
    const answerDeadlines = { connectMs: config.databaseConnectTimeoutMs, queryMs: config.databaseQueryDeadlineMs };
    const openPool = poolOpener(connectionFor(databaseUrl!, socketDir), answerDeadlines);
    pool = openPool({ max: options.poolSize ?? config.databasePoolSize, applicationName: 'idem' });
    // The operator's server: one that cannot be reached is said in one line naming DATABASE_URL.
    const opening = pool;
    if (config.databaseUrl) await ensureReachable('PostgreSQL', 'DATABASE_URL', config.databaseUrl, () => opening.query('SELECT 1'));
    const eventStore = await createEventStore(config, pool);
    const opened = pool;
    return {
      config,
      databaseUrl: databaseUrl!,
      pool,
      eventStore,
      embedded,
      answerDeadlines,
      openPool,
      async close() {
        await eventStore.close();
        await endPool(opened);
        await embedded?.stop();
      },
    };
  } catch (error) {
    await pool?.end();
    await embedded?.stop();
    throw error;
  }
}

/**
 * Every pool of the runtime connects through one class of client with deadlines (answer-deadlines.ts):
 * what one pool learns about a server that stopped answering, the others act on at once.
 */
function poolOpener(connection: PoolConfig, deadlines: AnswerDeadlines): (options: PoolOptions) => Pool {
  const Client = clientWithDeadlines(deadlines);
  return ({ max, applicationName, settings = {} }) => {
    // `settings` become the sessions' own defaults (the startup packet's `-c name=value` options).
    const options = Object.entries(settings)
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(' ');
    return surviveLostConnections(new Pool({ ...connection, Client, max, application_name: applicationName, ...(options && { options }) }));
  };
}

/**
 * The embedded cluster also listens on a Unix-domain socket in its own cluster directory (created by
 * startEmbeddedPostgres under `<dataDir>/pg`, owned by the server's user): every query is a write and
 * a read on this connection, and over loopback TCP both sides also run the TCP stack for each
 * message. Socket paths are limited to 107 bytes, so a very deep data directory stays on TCP.
 */
function embeddedSocketDir(dataDir: string): string | undefined {
  const dir = join(dataDir, 'pg');
  return dir.length + '/.s.PGSQL.65535.lock'.length <= 100 ? dir : undefined;
}

/**
 * The runtime's own pools connect through the socket when there is one (`?host=<dir>` overrides the
 * URL's host in pg). It stays a connection string because code that opens its own clients from
 * `pool.options` (the projection locks) only gets the password that way. `databaseUrl` stays the TCP
 * URL: it is what the banner shows and what TypeORM, the CLI and other processes are given.
 */
function connectionFor(databaseUrl: string, socketDir: string | undefined): PoolConfig {
  if (!socketDir) return { connectionString: databaseUrl };
  const url = new URL(databaseUrl);
  url.searchParams.set('host', socketDir);
  return { connectionString: url.toString() };
}

async function createEventStore(config: IdemConfig, pool: Pool): Promise<EventStore> {
  if (config.eventStore.kind === 'esdb') {
    // Events live in EventStoreDB; read models, checkpoints and job rows stay in PostgreSQL. Its client
    // (gRPC, protobuf: a sixth of what the CLI loaded) is loaded only by a process that uses it.
    const { EsdbEventStore } = await import('../event-store/esdb/esdb.event-store');
    const connectionString = config.eventStore.esdbConnectionString!;
    const store = EsdbEventStore.connect(connectionString, {
      maxAppendBytes: config.eventStore.maxAppendBytes,
      // A dropped subscription resumes on its own (esdb.subscription.ts); said here so that an operator
      // sees a server that stalls or restarts, not only a lag that comes and goes.
      onSubscriptionDrop: ({ error, resumeAfter }) =>
        eventStoreLogger.warn(
          `EventStoreDB subscription dropped (${error instanceof Error ? error.message : 'ended by the server'}); ` +
            `resuming after ${resumeAfter ?? 'the start of $all'}`,
        ),
    });
    // The client connects lazily: ask once, so that a server that cannot be reached is said here, in one line.
    try {
      await ensureReachable('EventStoreDB', 'EVENTSTORE_CONNECTION_STRING', connectionString, () => store.ping());
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }
  const store = new PostgresEventStore(pool, {
    maxAppendBytes: config.eventStore.maxAppendBytes,
    pollIntervalMs: config.eventStore.subscriptionPollMs,
    // 10 ms more projection lag, and in bench:charges 7–10 % less CPU per order: fewer, fuller
    // projection batches and fewer reads that find only events still held back by the gap-free rule.
    appendWakeDelayMs: SUBSCRIPTION_APPEND_WAKE_DELAY_MS,
  });
  await store.migrate();
  return store;
}
