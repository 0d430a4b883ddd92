/**
 * The read-model database as a process sees it: prepared (prepareDatabase: migrations applied,
 * version 1 of every feature's read model installed, so the api can serve before the first worker
 * ever ran), and a TypeORM data source over their entities.
 */
import type { DataSource } from 'typeorm';
import { createReadModelDataSource, runReadModelMigrations } from '../database/data-source';
import { migrateFeatures, readModelsOf, type Feature, type FeatureCore } from '../features/feature';
import { installReadModels } from '../subscriptions/read-models/versions';
import type { Runtime } from './runtime';

export interface ReadModels {
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * What every process (api, worker, CLI) does to the database before it reads or writes: the kernel's
 * and the features' migrations, then version 1 of each read model where none is installed yet — so
 * `idem sync list` on a database no worker ever ran against lists nothing instead of failing.
 */
export async function prepareDatabase(
  runtime: Pick<Runtime, 'databaseUrl' | 'pool' | 'answerDeadlines'>,
  features: readonly FeatureCore[],
): Promise<void> {
  // The configured deadlines, as for every other connection of the process.
  await runReadModelMigrations(runtime.databaseUrl, runtime.answerDeadlines);
  await migrateFeatures(runtime.pool, features);
  await installReadModels(runtime.pool, readModelsOf(features));
}

export async function openReadModels(runtime: Runtime, features: readonly Feature[], poolSize = 4): Promise<ReadModels> {
  await prepareDatabase(runtime, features);
  const readModels = readModelsOf(features);
  const entities = readModels.map((model) => model.entity);
  const dataSource = await createReadModelDataSource({
    url: runtime.databaseUrl,
    entities,
    poolSize,
    answerDeadlines: runtime.answerDeadlines,
  }).initialize();
  return { dataSource, close: () => dataSource.destroy() };
}
