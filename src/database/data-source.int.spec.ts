/**
 * runReadModelMigrations on every start of the api, the worker and each `idem` command: the migrations
 * run once, and a database that has them all is not set up through TypeORM again.
 */
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../test/harness/test-database';
import { runReadModelMigrations } from './data-source';

describe('runReadModelMigrations', () => {
  let url: string;
  let initialize: jest.SpyInstance;
  beforeAll(async () => {
    url = await createTestDatabase('read_model_migrations');
  });
  beforeEach(() => {
    initialize = jest.spyOn(DataSource.prototype, 'initialize');
  });
  afterEach(() => initialize.mockRestore());

  it('applies the migrations to a new database through TypeORM', async () => {
    await runReadModelMigrations(url);
    expect(initialize).toHaveBeenCalledTimes(1);
    const pool = new Pool({ connectionString: url, max: 1 });
    try {
      const { rows } = await pool.query(`SELECT to_regclass('projection_checkpoints') IS NOT NULL AS present`);
      expect(rows[0]).toEqual({ present: true });
    } finally {
      await pool.end();
    }
  });

  it('opens no TypeORM data source on a database that has every migration', async () => {
    await runReadModelMigrations(url);
    expect(initialize).not.toHaveBeenCalled();
  });
});
