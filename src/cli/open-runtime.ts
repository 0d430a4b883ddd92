/**
 * The database and event store a command works on, prepared as the api and worker prepare theirs.
 * Without DATABASE_URL that is the embedded cluster's data directory, which one process at a time can
 * run: while a service runs on it, the CLI reaches that service's database through the DATABASE_URL
 * its start banner prints, not another directory (the service's own advice, embedded-postgres.ts).
 * A directory that holds no cluster is refused rather than initialised: a command run with a mistyped
 * IDEM_DATA_DIR, or from another directory than the service's `./.idem`, answered from a new, empty
 * database (`idem audit verify`: `"ok": true`, 0 events checked, exit 0).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { prepareDatabase } from '../bootstrap/read-models';
import { startRuntime, type Runtime } from '../bootstrap/runtime';
import type { IdemConfig } from '../config/config';
import { DataDirectoryInUse } from '../database/reclaim-data-directory';
import type { FeatureCore } from '../features/feature';

export async function openCliRuntime(config: IdemConfig, features: readonly FeatureCore[]): Promise<Runtime> {
  // The cluster's own directory, as startEmbeddedPostgres lays it out; the service creates it on its first start.
  if (!config.databaseUrl && !existsSync(join(config.dataDir, 'pg'))) {
    throw new Error(
      `no Idem database in ${resolve(config.dataDir)}: no service was ever started with that data directory. ` +
        'Run idem with the IDEM_DATA_DIR of the instance (npm start uses ./.idem where it is started), ' +
        'or, while it runs, with the variables its start banner prints on its "idem beside it:" line (DATABASE_URL=…)',
    );
  }
  let runtime: Runtime;
  try {
    runtime = await startRuntime(config, { poolSize: 8 });
  } catch (error) {
    if (!(error instanceof DataDirectoryInUse)) throw error;
    throw new Error(
      `the embedded database in ${config.dataDir} is in use by a running Idem instance (PostgreSQL pid ${error.pid}); ` +
        'to work on it, run idem with the variables that instance’s start banner prints on its "idem beside it:" line ' +
        '(DATABASE_URL=…, and for recover and sync the provider and CRM addresses)',
      { cause: error },
    );
  }
  await prepareDatabase(runtime, features);
  return runtime;
}
