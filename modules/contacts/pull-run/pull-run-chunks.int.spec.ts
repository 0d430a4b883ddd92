/**
 * A pull page whose outcomes outgrow one append (1,000 records, most rejected with long reasons) is
 * recorded in several appends that each fit the store's limit; the run completes with every record
 * counted once.
 */
import { Pool } from 'pg';
import { DEFAULT_MAX_APPEND_BYTES } from '../../../src/event-store/append-validation';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { killedBeforeCompletion } from '../../../test/harness/killed-before-completion';
import { createTestDatabase } from '../../../test/harness/test-database';
import { importStream } from '../contact.events';
import type { ContactSource } from '../contact-source/contact-source.port';
import { driveRun } from './drive-run';
import { startRun } from './start-run';

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };
const noise = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`unknown_field_with_a_long_name_${'z'.repeat(30)}_${i}`, i]));
const records = [
  { sourceId: 'chunk-ok', version: 1, eventId: 'chunk-ok-1', fields: { name: 'Ok' } },
  ...Array.from({ length: 999 }, (_, i) => ({ sourceId: `chunk-bad-${i}`, fields: {}, ...noise })),
];
/** One page of the records above, and nothing after it. */
const onePage: ContactSource = { name: 'crm', fetchPage: () => Promise.resolve({ records, nextCursor: null }) };

let pool: Pool;
let store: PostgresEventStore;
beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('contacts_pull_chunks'), max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(() => pool.end());

describe('a pull page whose outcomes outgrow one append', () => {
  it('is recorded whole, in appends that each fit the store, and completes the run', async () => {
    const runId = await startRun(store, { source: 'crm', startedBy: 'sync', kind: 'pull' }, metadata);
    const run = await driveRun({ store, sources: () => onePage, pageSize: 1000, metadata }, runId);
    expect(run).toMatchObject({ status: 'completed', processed: 1000, pages: 1, counts: { imported: 1, rejected: 999 } });
    const events = await store.readStream(importStream(runId));
    expect(events.filter((e) => e.type === 'ImportRecordProcessed')).toHaveLength(1000);
    const bytes = events.reduce((sum, e) => sum + JSON.stringify(e.data).length + JSON.stringify(e.metadata).length, 0);
    expect(bytes).toBeGreaterThan(DEFAULT_MAX_APPEND_BYTES);
  });

  it("completes without pulling anything again after a kill between the last page and the run's completion", async () => {
    const runId = await startRun(store, { source: 'crm', startedBy: 'sync', kind: 'pull' }, metadata);
    let fetches = 0;
    const counted: ContactSource = { name: 'crm', fetchPage: (request) => (fetches++, onePage.fetchPage(request)) };
    const dying = killedBeforeCompletion(store);
    await expect(driveRun({ store: dying, sources: () => counted, pageSize: 1000, metadata }, runId)).rejects.toThrow('killed');
    expect(fetches).toBe(1);

    const run = await driveRun({ store, sources: () => counted, pageSize: 1000, metadata }, runId);
    expect(run).toMatchObject({ status: 'completed', processed: 1000, pages: 1, cursor: null, counts: { rejected: 999 } });
    expect(fetches).toBe(1);
    const events = await store.readStream(importStream(runId));
    expect(events.filter((e) => e.type === 'ImportRecordProcessed')).toHaveLength(1000);
  });
});
