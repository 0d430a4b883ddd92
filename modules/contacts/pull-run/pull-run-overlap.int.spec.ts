/**
 * A pull run writes a page's outcomes while it imports the next page's records (drive-run.ts): the
 * write of page 1 is held by the store below until a record of page 2 reaches its contact stream, which
 * happens only if the driver imports page 2 meanwhile (a driver that waits for the write never releases
 * it, and the hold gives up after a few seconds: the overlap is then reported missing). A driver that dies
 * in that state, page 2 imported and page 1 not recorded, leaves a run the next driver completes with
 * every record counted once, each with the outcome it got the first time.
 */
import { Pool } from 'pg';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { contactStream, importStream } from '../contact.events';
import type { ContactSource } from '../contact-source/contact-source.port';
import { driveRun, loadRun } from './drive-run';
import { startRun } from './start-run';

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };
const PAGE_SIZE = 3;

/** Three pages of new contacts named after `prefix` (each test its own); the cursor is the offset of the next page. */
function threePagesOf(prefix: string) {
  const records = Array.from({ length: 3 * PAGE_SIZE }, (_, i) => ({ sourceId: `${prefix}-${i}`, version: 1, fields: { n: i } }));
  const source: ContactSource = {
    name: 'crm',
    fetchPage: ({ cursor }) => {
      const from = Number(cursor ?? 0);
      const next = from + PAGE_SIZE;
      return Promise.resolve({ records: records.slice(from, next), nextCursor: next < records.length ? String(next) : null });
    },
  };
  const pageTwoStreams = new Set(records.slice(PAGE_SIZE, 2 * PAGE_SIZE).map((r) => contactStream('crm', r.sourceId)));
  return { records, source, pageTwoStreams };
}

/**
 * `store`, holding the run's first page write (its first append to the import stream after the start)
 * until a contact of page 2 is appended, or `giveUpMs` passed; then it writes it, or with `dieInstead`
 * throws as a process killed there would leave it (nothing of page 1 recorded).
 */
function holdingPageOne(store: EventStore, pageTwoStreams: Set<string>, options: { giveUpMs: number; dieInstead?: boolean }) {
  let sawPageTwo!: () => void;
  const pageTwoImported = new Promise<void>((resolve) => (sawPageTwo = resolve));
  const seen = { pageTwoBeforePageOneWritten: false };
  let held = false;
  const wrapped = Object.create(store, {
    append: {
      value: async (...args: Parameters<EventStore['append']>) => {
        const [stream, events] = args;
        if (pageTwoStreams.has(stream)) sawPageTwo();
        if (held || !stream.startsWith('import-') || !events.some((e) => e.type === 'ImportRecordProcessed')) return store.append(...args);
        held = true;
        const timeout = new Promise<'gave up'>((resolve) => setTimeout(() => resolve('gave up'), options.giveUpMs).unref());
        seen.pageTwoBeforePageOneWritten = (await Promise.race([pageTwoImported.then(() => 'seen' as const), timeout])) === 'seen';
        if (options.dieInstead) throw new Error('killed');
        return store.append(...args);
      },
    },
  }) as EventStore;
  return { store: wrapped, seen };
}

let pool: Pool;
let store: PostgresEventStore;
beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('contacts_pull_overlap'), max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(() => pool.end());

describe("a pull run's pages", () => {
  it('are imported while the page before is written, and the run completes with every record once', async () => {
    const { records, source, pageTwoStreams } = threePagesOf('overlap');
    const runId = await startRun(store, { source: 'crm', startedBy: 'sync', kind: 'pull' }, metadata);
    const holding = holdingPageOne(store, pageTwoStreams, { giveUpMs: 5_000 });
    const run = await driveRun({ store: holding.store, sources: () => source, pageSize: PAGE_SIZE, metadata }, runId);
    expect(holding.seen.pageTwoBeforePageOneWritten).toBe(true);
    expect(run).toMatchObject({ status: 'completed', pages: 3, processed: records.length, counts: { imported: records.length } });
    const processed = (await store.readStream(importStream(runId))).filter((e) => e.type === 'ImportRecordProcessed');
    expect(processed.map((e) => (e.data as { sourceId: string }).sourceId)).toEqual(records.map((r) => r.sourceId));
  });

  it('left with page 2 imported and page 1 unrecorded by a driver that died, complete once, each record with its first outcome', async () => {
    const { records, source, pageTwoStreams } = threePagesOf('died-overlapping');
    const runId = await startRun(store, { source: 'crm', startedBy: 'sync', kind: 'pull' }, metadata);
    const dying = holdingPageOne(store, pageTwoStreams, { giveUpMs: 5_000, dieInstead: true });
    await expect(driveRun({ store: dying.store, sources: () => source, pageSize: PAGE_SIZE, metadata }, runId)).rejects.toThrow('killed');
    expect(dying.seen.pageTwoBeforePageOneWritten).toBe(true);
    expect(await loadRun(new PostgresEventStore(pool), runId)).toMatchObject({ status: 'running', pages: 0, processed: 0 });

    const run = await driveRun({ store: new PostgresEventStore(pool), sources: () => source, pageSize: PAGE_SIZE, metadata }, runId);
    expect(run).toMatchObject({ status: 'completed', pages: 3, processed: records.length, counts: { imported: records.length } });
    const processed = (await store.readStream(importStream(runId))).filter((e) => e.type === 'ImportRecordProcessed');
    expect(processed.map((e) => (e.data as { sourceId: string; outcome: string }).outcome)).toEqual(records.map(() => 'imported'));
    for (const record of records) expect(await store.readStream(contactStream('crm', record.sourceId))).toHaveLength(1);
  });
});
