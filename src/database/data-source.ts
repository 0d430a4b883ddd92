/**
 * The read-model database as TypeORM sees it: entities for the query side, migrations for the shared
 * schema. `synchronize` stays off: the schema changes only through migrations and projection versions.
 */
import type { ClientBase } from 'pg';
import { DataSource } from 'typeorm';
import { READ_MODEL_MIGRATIONS } from './read-model-migrations';
import { clientWithDeadlines, DEFAULT_ANSWER_DEADLINES, type AnswerDeadlines } from './answer-deadlines';

/** Nest injection token of the process's read-model {@link DataSource} (features build their queries on it). */
export const READ_MODEL_DATA_SOURCE = Symbol('READ_MODEL_DATA_SOURCE');

export interface ReadModelDataSourceOptions {
  url: string;
  /** The composition root passes the read models' entities (src does not import projections/). */
  entities: Function[];
  poolSize?: number;
  /** The runtime's (`runtime.answerDeadlines`); by default DEFAULT_ANSWER_DEADLINES. */
  answerDeadlines?: AnswerDeadlines;
}

export function createReadModelDataSource(options: ReadModelDataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    entities: options.entities,
    migrations: READ_MODEL_MIGRATIONS,
    migrationsTableName: 'read_model_migrations',
    synchronize: false,
    migrationsRun: false,
    // The api's reads of read models go through this pool: the same deadlines as the runtime's (answer-deadlines.ts).
    extra: { max: options.poolSize ?? 10, Client: clientWithDeadlines(options.answerDeadlines ?? DEFAULT_ANSWER_DEADLINES) },
  });
}

/**
 * Runs pending migrations. api, worker and CLI may start together and TypeORM does not serialise
 * them, so the run happens under an advisory lock held on a side connection. A database that has
 * every migration already (each start but the first) is told by two short queries on that connection,
 * without the lock or a TypeORM data source, whose set-up (a pool, TypeORM's own queries) every `idem`
 * command waited for. `answerDeadlines` are the process's (IDEM_DB_CONNECT_TIMEOUT,
 * IDEM_DB_QUERY_DEADLINE: `runtime.answerDeadlines`), for the lock's connection and the migrations'
 * alike; by default DEFAULT_ANSWER_DEADLINES.
 */
export async function runReadModelMigrations(url: string, answerDeadlines: AnswerDeadlines = DEFAULT_ANSWER_DEADLINES): Promise<void> {
  // Its wait for the lock may be long (another process migrating), and the deadlines never cut a wait
  // PostgreSQL confirms; a server that does not answer fails the start instead of hanging it.
  const LockClient = clientWithDeadlines(answerDeadlines);
  // A lost server fails the lock's query; the class's own 'error' listener keeps its event from also ending the process.
  const lock = new LockClient({ connectionString: url });
  await lock.connect();
  try {
    if (await everyMigrationApplied(lock)) return;
    const dataSource = createReadModelDataSource({ url, entities: [], poolSize: 1, answerDeadlines });
    try {
      await lock.query(`SELECT pg_advisory_lock(hashtext('idem.read_model_migrations'))`);
      await dataSource.initialize();
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
    }
  } finally {
    await lock.end();
  }
}

/**
 * Whether `read_model_migrations` (TypeORM's table, migrationsTableName above) names every migration of
 * READ_MODEL_MIGRATIONS. Applied migrations are never undone, so "all applied" cannot turn false under a
 * concurrent start; anything less takes the locked path, where TypeORM decides what to run.
 */
async function everyMigrationApplied(client: Pick<ClientBase, 'query'>): Promise<boolean> {
  const table = await client.query<{ present: boolean }>(`SELECT to_regclass('read_model_migrations') IS NOT NULL AS present`);
  if (!table.rows[0].present) return false;
  const { rows } = await client.query<{ name: string }>('SELECT name FROM read_model_migrations');
  const applied = new Set(rows.map((row) => row.name));
  return READ_MODEL_MIGRATIONS.every((Migration) => applied.has(new Migration().name));
}
