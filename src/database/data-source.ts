/**
 * The read-model database as TypeORM sees it: entities for the query side, migrations for the shared
 * schema. `synchronize` stays off: the schema changes only through migrations and projection versions.
 */
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
 * them, so the run happens under an advisory lock held on a side connection. `answerDeadlines` are the
 * process's (IDEM_DB_CONNECT_TIMEOUT, IDEM_DB_QUERY_DEADLINE: `runtime.answerDeadlines`), for the lock's
 * connection and the migrations' alike; by default DEFAULT_ANSWER_DEADLINES.
 */
export async function runReadModelMigrations(url: string, answerDeadlines: AnswerDeadlines = DEFAULT_ANSWER_DEADLINES): Promise<void> {
  // Its wait for the lock may be long (another process migrating), and the deadlines never cut a wait
  // PostgreSQL confirms; a server that does not answer fails the start instead of hanging it.
  const LockClient = clientWithDeadlines(answerDeadlines);
  // A lost server fails the lock's query; the class's own 'error' listener keeps its event from also ending the process.
  const lock = new LockClient({ connectionString: url });
  await lock.connect();
  const dataSource = createReadModelDataSource({ url, entities: [], poolSize: 1, answerDeadlines });
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('idem.read_model_migrations'))`);
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await lock.end();
  }
}
