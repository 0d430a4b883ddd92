/**
 * The infrastructure one Idem process needs, whatever it runs (api, worker, CLI): the PostgreSQL
 * server (embedded when no DATABASE_URL is set), a pool, and the event store, migrated.
 * `close()` undoes it in reverse order.
 */
import { Pool } from 'pg';
import type { IdemConfig } from '../config/config';
import { ensureDatabase } from '../database/create-database';
import { startEmbeddedPostgres, type EmbeddedCluster } from '../database/embedded-postgres';
import type { EventStore } from '../event-store/event-store.port';
import { EsdbEventStore } from '../event-store/esdb/esdb.event-store';
import { PostgresEventStore } from '../event-store/postgres/postgres.event-store';

export interface Runtime {
  config: IdemConfig;
  databaseUrl: string;
  pool: Pool;
  eventStore: EventStore;
  embedded: EmbeddedCluster | undefined;
  close(): Promise<void>;
}

const EMBEDDED_DATABASE = 'idem';

export async function startRuntime(config: IdemConfig, options: { poolSize?: number } = {}): Promise<Runtime> {
  let embedded: EmbeddedCluster | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
    await ensureDatabase(embedded.urlFor('postgres'), EMBEDDED_DATABASE);
    databaseUrl = embedded.urlFor(EMBEDDED_DATABASE);
  }
  const pool = new Pool({ connectionString: databaseUrl, max: options.poolSize ?? 20, application_name: 'idem' });
  // An idle client that loses its server must not crash the process; queries report their own errors.
  pool.on('error', () => undefined);
  try {
    const eventStore = await createEventStore(config, pool);
    return {
      config,
      databaseUrl,
      pool,
      eventStore,
      embedded,
      async close() {
        await eventStore.close();
        await pool.end();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await pool.end();
    await embedded?.stop();
    throw error;
  }
}

async function createEventStore(config: IdemConfig, pool: Pool): Promise<EventStore> {
  if (config.eventStore.kind === 'esdb') {
    // Events live in EventStoreDB; read models, checkpoints and job rows stay in PostgreSQL.
    return EsdbEventStore.connect(config.eventStore.esdbConnectionString!, { maxAppendBytes: config.eventStore.maxAppendBytes });
  }
  const store = new PostgresEventStore(pool, { maxAppendBytes: config.eventStore.maxAppendBytes });
  await store.migrate();
  return store;
}
