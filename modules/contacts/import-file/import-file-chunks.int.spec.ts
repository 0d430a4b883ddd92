/**
 * A slice whose audit outgrows one append (long rejected reasons) is recorded in several appends that
 * each fit the store's limit; an import killed between those appends goes on from the slice's first
 * record without an outcome, and every record of the run is recorded exactly once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { DEFAULT_MAX_APPEND_BYTES } from '../../../src/event-store/append-validation';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { killedBeforeCompletion } from '../../../test/harness/killed-before-completion';
import { createTestDatabase } from '../../../test/harness/test-database';
import { importStream, type ImportRecordProcessed } from '../contact.events';
import { importFile } from './import-file';

const metadata = { correlationId: 't', causationId: 't', actor: { role: 'sync', tokenId: 't' } };
const noise = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`unknown_field_with_a_long_name_${'z'.repeat(30)}_${i}`, i]));

const directories: string[] = [];

/**
 * One valid record, then 499 rejected for their many unknown fields: 500 lines, one slice. The valid one
 * comes first: a run whose first records are every one rejected stops as unreadable (nothing-readable.decision.ts).
 */
function file(tag: string): string {
  const directory = mkdtempSync(join(tmpdir(), 'idem-file-chunks-'));
  directories.push(directory);
  const path = join(directory, 'contacts.ndjson');
  const lines = [JSON.stringify({ sourceId: `${tag}-ok`, version: 1, eventId: `${tag}-ok-1`, fields: { name: 'Ok' } })];
  lines.push(...Array.from({ length: 499 }, (_, i) => JSON.stringify({ sourceId: `${tag}-bad-${i}`, fields: {}, ...noise })));
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

let pool: Pool;
let store: PostgresEventStore;
beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('file_chunks'), max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(async () => {
  await pool.end();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const recordSeqs = async (runId: string) =>
  (await store.readStream(importStream(runId)))
    .filter((e) => e.type === 'ImportRecordProcessed')
    .map((e) => (e.data as ImportRecordProcessed['data']).seq);

describe('importFile of a slice whose outcomes outgrow one append', () => {
  it('records every outcome, in appends that each fit the store', async () => {
    const run = await importFile({ store, source: 'crm', path: file('big'), metadata });
    expect(run).toMatchObject({ status: 'completed', processed: 500, pages: 1, counts: { rejected: 499, imported: 1 } });
    const events = await store.readStream(importStream(run.runId));
    const bytes = events.reduce((sum, e) => sum + JSON.stringify(e.data).length + JSON.stringify(e.metadata).length, 0);
    expect(bytes).toBeGreaterThan(DEFAULT_MAX_APPEND_BYTES);
  });

  it('goes on after a kill between the appends of a slice, recording each record once', async () => {
    const path = file('killed');
    // The process dies after the slice's first append of outcomes: what it wrote stays, the rest never comes.
    let recordAppends = 0;
    const dying: EventStore = Object.create(store, {
      append: {
        value: async (...args: Parameters<EventStore['append']>) => {
          if (args[1][0]?.type === 'ImportRecordProcessed' && ++recordAppends === 2) throw new Error('killed');
          return store.append(...args);
        },
      },
    });
    await expect(importFile({ store: dying, source: 'crm', path, metadata })).rejects.toThrow('killed');

    const run = await importFile({ store, source: 'crm', path, metadata });
    expect(run).toMatchObject({ status: 'completed', processed: 500, pages: 1 });
    expect(run.counts.rejected).toBe(499);
    expect(await recordSeqs(run.runId)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(await store.readStream('contact-crm.killed-ok')).toHaveLength(1);
  });

  it("completes, reading nothing again, after a kill between the last slice and the run's completion", async () => {
    const path = file('ended');
    const dying = killedBeforeCompletion(store);
    await expect(importFile({ store: dying, source: 'crm', path, metadata, sliceSize: 300 })).rejects.toThrow('killed');

    const run = await importFile({ store, source: 'crm', path, metadata, sliceSize: 300 });
    expect(run).toMatchObject({ status: 'completed', processed: 500, pages: 2, cursor: null, counts: { rejected: 499, imported: 1 } });
    expect(await recordSeqs(run.runId)).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });
});
