import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import { createIsolatedTestDatabase } from '../harness/test-database';
import { describeEventStoreContract } from './event-store.contract';

let pool: Pool;
let racePool: Pool;
const stores: Record<'grouped' | 'ungrouped' | 'groupedRace' | 'ungroupedRace', PostgresEventStore> = {} as never;
let stopCluster: () => Promise<void>;

beforeAll(async () => {
  // readAll shows settled history only (transactions older than the oldest one in flight anywhere in
  // the cluster); the contract asserts exact readAll results, so no other test file may share it.
  const database = await createIsolatedTestDatabase('contract_pg', 'contract');
  stopCluster = database.stop;
  pool = new Pool({ connectionString: database.url, max: 20 });
  // Only these sessions set the test-only delay of idem_append (idem-append-v4.migration.ts).
  racePool = new Pool({ connectionString: database.url, max: 6, options: '-c idem.test_race_delay_ms=15' });
  stores.grouped = new PostgresEventStore(pool);
  stores.ungrouped = new PostgresEventStore(pool, { groupAppends: false });
  stores.groupedRace = new PostgresEventStore(racePool);
  stores.ungroupedRace = new PostgresEventStore(racePool, { groupAppends: false });
  await stores.grouped.migrate();
});

afterAll(async () => {
  await Promise.all(Object.values(stores).map((store) => store.close()));
  await Promise.all([pool.end(), racePool.end()]);
  await stopCluster();
});

const capabilities = { duplicateIdOutsideItsSlot: 'conflict', eventIdScope: 'store', maxAppendBytes: 1_048_576 } as const;
describeEventStoreContract('PostgresEventStore', () => ({ store: stores.grouped, raceWindowStore: stores.groupedRace, capabilities }));
describeEventStoreContract('PostgresEventStore with groupAppends: false', () => ({
  store: stores.ungrouped,
  raceWindowStore: stores.ungroupedRace,
  capabilities,
}));
