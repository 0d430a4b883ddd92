import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../harness/test-database';
import { describeLinearizability } from './event-store.linearizability';

let pool: Pool;
let grouped: PostgresEventStore;
let ungrouped: PostgresEventStore;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('linearizability'), max: 8 });
  grouped = new PostgresEventStore(pool);
  ungrouped = new PostgresEventStore(pool, { groupAppends: false });
  await grouped.migrate();
});
afterAll(async () => {
  await Promise.all([grouped.close(), ungrouped.close()]);
  await pool.end();
});

const capabilities = { duplicateIdOutsideItsSlot: 'conflict', eventIdScope: 'store', maxAppendBytes: 1_048_576 } as const;
describeLinearizability('PostgresEventStore', () => ({ store: grouped, capabilities }));
describeLinearizability('PostgresEventStore with groupAppends: false', () => ({ store: ungrouped, capabilities }));
