import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { createIsolatedTestDatabase } from '../harness/test-database';
import { describeEventStoreContract } from './event-store.contract';

let pool: Pool;
let store: PostgresEventStore;
let ungrouped: PostgresEventStore;
let stopCluster: () => Promise<void>;

beforeAll(async () => {
  // readAll shows settled history only (transactions older than the oldest one in flight anywhere in
  // the cluster); the contract asserts exact readAll results, so no other test file may share it.
  const database = await createIsolatedTestDatabase('contract_pg', 'contract');
  stopCluster = database.stop;
  pool = new Pool({ connectionString: database.url, max: 20 });
  store = new PostgresEventStore(pool);
  ungrouped = new PostgresEventStore(pool, { groupAppends: false });
  await store.migrate();
});

afterAll(async () => {
  await store.close();
  await ungrouped.close();
  await pool.end();
  await stopCluster();
});

const capabilities = { duplicateIdOutsideItsSlot: 'conflict', eventIdScope: 'store', maxAppendBytes: 1_048_576 } as const;
describeEventStoreContract('PostgresEventStore', () => ({ store, capabilities }));
describeEventStoreContract('PostgresEventStore with groupAppends: false', () => ({ store: ungrouped, capabilities }));
