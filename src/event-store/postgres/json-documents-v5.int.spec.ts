/**
 * Migration 5 turns the events' jsonb documents into json (json-documents-v5.migration.ts): a store
 * written before it reads the same events after it, and appends through both append paths again.
 */
import { Pool } from 'pg';
import { testEvent } from '../../../test/contracts/test-events';
import { createTestDatabase } from '../../../test/harness/test-database';
import { waitUntil } from '../../../test/harness/wait-until';
import { applyMigrations } from '../../database/migrate';
import type { EventToAppend } from '../event-store.port';
import { PostgresEventStore } from './postgres.event-store';
import { EVENT_STORE_MIGRATIONS } from './schema';

let pool: Pool;
beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('json_documents_v5'), max: 4 });
});
afterAll(() => pool.end());

const columnTypes = async () =>
  (
    await pool.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
        WHERE table_name = 'idem_events' AND column_name IN ('data', 'metadata') ORDER BY column_name`,
    )
  ).rows.map((r) => `${r.column_name}:${r.data_type}`);

it('keeps every event written under jsonb, and appends afterwards', async () => {
  await applyMigrations(
    pool,
    'idem_event_store_migrations',
    EVENT_STORE_MIGRATIONS.filter((m) => m.version < 5),
  );
  expect(await columnTypes()).toEqual(['data:jsonb', 'metadata:jsonb']);
  // Written as the code before migration 5 wrote them: through idem_append's jsonb parameters.
  const appendAsBefore = (stream: string, events: EventToAppend[]) =>
    pool.query(`SELECT * FROM idem_append($1, -2, $2::uuid[], $3::text[], $4::jsonb[], $5::jsonb[])`, [
      stream,
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data)),
      events.map((e) => JSON.stringify(e.metadata)),
    ]);
  const single = testEvent('Happened', { nested: { list: [1, 'two', null], flag: true }, text: 'é ✓' });
  const many = [testEvent('First', { n: 1 }), testEvent('Second', { n: 2 })];
  await appendAsBefore('order-v5-a', [single]);
  await appendAsBefore('order-v5-b', many);

  const after = new PostgresEventStore(pool);
  await after.migrate();

  expect(await columnTypes()).toEqual(['data:json', 'metadata:json']);
  const read = [...(await after.readStream('order-v5-a')), ...(await after.readStream('order-v5-b'))];
  expect(read.map(({ id, type, data, metadata }) => ({ id, type, data, metadata }))).toEqual([single, ...many]);
  await Promise.all([
    after.append('order-v5-a', [testEvent('Later', { n: 3 })], 0),
    after.append('order-v5-c', [testEvent('New', { n: 4 })], 'no_stream'),
  ]);
  await after.append('order-v5-b', [testEvent('Third', { n: 5 }), testEvent('Fourth', { n: 6 })], 1);
  expect((await after.readStream('order-v5-a')).map((e) => e.data)).toEqual([single.data, { n: 3 }]);
  expect((await after.readStream('order-v5-b')).map((e) => e.type)).toEqual(['First', 'Second', 'Third', 'Fourth']);
  // readAll shows only settled transactions (below the oldest still running anywhere in the cluster,
  // where other test files run theirs): all seven, once nothing older is in flight.
  expect(
    await waitUntil(
      () => after.readAll(),
      (events) => events.length >= 7,
      30_000,
    ),
  ).toHaveLength(7);
});
