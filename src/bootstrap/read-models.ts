/**
 * The read-model database as a process sees it: migrations applied, version 1 of every read model
 * installed (so the api can serve before the first worker ever ran), and a TypeORM data source.
 */
import type { DataSource } from 'typeorm';
import { OrderQueries, READ_MODEL_ENTITIES, READ_MODELS } from '../../projections';
import { createReadModelDataSource, runReadModelMigrations } from '../database/data-source';
import { installReadModels } from '../subscriptions/read-models/versions';
import type { Runtime } from './runtime';

export interface ReadModels {
  dataSource: DataSource;
  orders: OrderQueries;
  close(): Promise<void>;
}

export async function openReadModels(runtime: Runtime, poolSize = 4): Promise<ReadModels> {
  await runReadModelMigrations(runtime.databaseUrl);
  await installReadModels(runtime.pool, READ_MODELS);
  const dataSource = await createReadModelDataSource({ url: runtime.databaseUrl, entities: READ_MODEL_ENTITIES, poolSize }).initialize();
  return { dataSource, orders: new OrderQueries(dataSource), close: () => dataSource.destroy() };
}
