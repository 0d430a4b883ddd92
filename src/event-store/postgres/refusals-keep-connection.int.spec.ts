/**
 * An append the server refuses (the revision or the event id is taken) is an ordinary answer of the
 * store, so it must not cost the pool its connection: pg-pool closes any connection whose
 * `pool.query()` failed, and a new backend is expensive (see queryKeepingConnection). One connection
 * in the pool, so every call below must go through the same backend.
 */
import { Pool } from 'pg';
import { testEvent } from '../../../test/contracts/test-events';
import { createTestDatabase } from '../../../test/harness/test-database';
import { InvalidAppend, WrongExpectedVersion } from '../errors';
import { PostgresEventStore } from './postgres.event-store';

let pool: Pool;
let store: PostgresEventStore;
let closedConnections = 0;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('refusals'), max: 1 });
  pool.on('remove', () => closedConnections++);
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(() => pool.end());

const backendPid = async () => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;

it('keeps its connection through conflicts and taken event ids, and the connection still works', async () => {
  const pid = await backendPid();
  const first = testEvent();
  await store.append('order-refusal-a', [first], 'no_stream');
  await store.append('order-refusal-a', [testEvent()], 0);

  // The single-event insert of a new stream: the (stream, revision) key is taken.
  await expect(store.append('order-refusal-a', [testEvent()], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedVersion);
  // The single-event insert at an exact revision: the next revision is taken.
  await expect(store.append('order-refusal-a', [testEvent()], 0)).rejects.toBeInstanceOf(WrongExpectedVersion);
  // Several events with a stale expectation (idem_append).
  await expect(store.append('order-refusal-a', [testEvent(), testEvent()], 0)).rejects.toBeInstanceOf(WrongExpectedVersion);
  // An event id already stored in another stream: the event-id index refuses it.
  await expect(store.append('order-refusal-b', [first], 'no_stream')).rejects.toBeInstanceOf(InvalidAppend);

  expect(closedConnections).toBe(0);
  expect(await backendPid()).toBe(pid);
  expect((await store.readStream('order-refusal-a')).map((e) => e.revision)).toEqual([0, 1]);
});
