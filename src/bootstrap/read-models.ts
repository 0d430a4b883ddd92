/**
 * The read-model database as a process sees it: the kernel's and the features' migrations applied,
 * version 1 of every feature's read model installed (so the api can serve before the first worker
 * ever ran), and a TypeORM data source over their entities.
 */
import type { DataSource } from 'typeorm';
import { createReadModelDataSource, runReadModelMigrations } from '../database/data-source';
import { migrateFeatures, readModelsOf, type Feature } from '../features/feature';
import { installReadModels } from '../subscriptions/read-models/versions';
import type { Runtime } from './runtime';

export interface ReadModels {
  dataSource: DataSource;
  close(): Promise<void>;
}

export async function openReadModels(runtime: Runtime, features: readonly Feature[], poolSize = 4): Promise<ReadModels> {
  await runReadModelMigrations(runtime.databaseUrl);
  await migrateFeatures(runtime.pool, features);
  const readModels = readModelsOf(features);
  await installReadModels(runtime.pool, readModels);
  const entities = readModels.map((model) => model.entity);
  const dataSource = await createReadModelDataSource({ url: runtime.databaseUrl, entities, poolSize }).initialize();
  return { dataSource, close: () => dataSource.destroy() };
}
