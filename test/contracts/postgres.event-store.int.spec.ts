import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../harness/test-database';
import { describeEventStoreContract } from './event-store.contract';

let pool: Pool;
let store: PostgresEventStore;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('contract_pg'), max: 20 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});

afterAll(async () => {
  await store.close();
  await pool.end();
});

describeEventStoreContract('PostgresEventStore', () => ({
  store,
  capabilities: { duplicateIdOutsideItsSlot: 'conflict', maxAppendBytes: 1_048_576 },
}));
