/**
 * Two claims of issue 14 the sandbox tests cannot show: a failing page is retried with backoff (each
 * wait longer than the one before, not at once), and only one worker drives a run at a time — two
 * drivers in separate module instances, as in two processes (the in-process guard of drive-run.ts
 * does not join them), race on the same run and still record every page and every record once.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { createTestDatabase } from '../../../test/harness/test-database';
import { importStream } from '../contact.events';
import type { ContactSource } from '../contact-source/contact-source.port';
import { driveRun, loadRun } from './drive-run';
import { MAX_FETCH_ATTEMPTS } from './record-page.decision';
import { startRun } from './start-run';

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };

let pool: Pool;
let store: PostgresEventStore;
beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('contacts_pull_drivers'), max: 8 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(() => pool.end());

const pull = () => startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);

describe('a pull run whose source keeps failing a page', () => {
  it('waits before each retry, twice as long each time, and stops for review after the fifth failure', async () => {
    const tries: number[] = [];
    const failing: ContactSource = {
      name: 'crm',
      fetchPage: () => {
        tries.push(performance.now());
        return Promise.reject(new Error('sandbox down'));
      },
    };
    const backoffMs = 40;
    const stopped = await driveRun({ store, sources: () => failing, backoffMs, metadata }, await pull());

    expect(stopped).toMatchObject({ status: 'needs_review', pages: 0, processed: 0 });
    expect(tries).toHaveLength(MAX_FETCH_ATTEMPTS);
    const waits = tries.slice(1).map((at, i) => at - tries[i]);
    // Timers may fire up to a millisecond early against performance.now().
    waits.forEach((waited, i) => expect(waited).toBeGreaterThanOrEqual(backoffMs * 2 ** i - 2));
  });
});

describe('a pull run driven by two workers at once', () => {
  const PAGES = 8;
  const PAGE_SIZE = 100;
  let fetches = 0;
  /** PAGES pages of PAGE_SIZE contacts, served at once; the cursor is the offset. */
  const pages: ContactSource = {
    name: 'crm',
    fetchPage: ({ cursor, limit }) => {
      fetches++;
      const from = Number(cursor ?? 0);
      const to = Math.min(from + limit, PAGES * PAGE_SIZE);
      const records = Array.from({ length: to - from }, (_, i) => ({ sourceId: `d${from + i}`, version: 1, fields: { n: from + i } }));
      return Promise.resolve({ records, nextCursor: to < PAGES * PAGE_SIZE ? String(to) : null });
    },
  };

  it('records every page and every record once, and every contact has one revision', async () => {
    // A second copy of the driver and its store, as another process has: its own "already driving
    // here" map (and its own error classes, which its store must share).
    let otherDriveRun: typeof driveRun | undefined;
    let otherStore: PostgresEventStore | undefined;
    await jest.isolateModulesAsync(async () => {
      otherDriveRun = (await import('./drive-run')).driveRun;
      otherStore = new (await import('../../../src/event-store/postgres/postgres.event-store')).PostgresEventStore(pool);
    });
    const runId = await pull();
    const deps = { sources: () => pages, pageSize: PAGE_SIZE, backoffMs: 5, metadata };
    await Promise.all([driveRun({ ...deps, store }, runId), otherDriveRun!({ ...deps, store: otherStore! }, runId)]);

    // Both drove: one driver alone fetches each page once (it prefetches only up to the last).
    expect(fetches).toBeGreaterThan(PAGES);
    const run = await loadRun(new PostgresEventStore(pool), runId);
    expect(run).toMatchObject({ status: 'completed', pages: PAGES, processed: PAGES * PAGE_SIZE });
    expect(run.counts).toEqual({ imported: PAGES * PAGE_SIZE });
    const events = await store.readStream(importStream(runId));
    expect(events.filter((e) => e.type === 'ImportPageFetched')).toHaveLength(PAGES);
    const seqs = events.filter((e) => e.type === 'ImportRecordProcessed').map((e) => (e.data as { seq: number }).seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs).toHaveLength(PAGES * PAGE_SIZE);
    const { rows } = await pool.query(
      `SELECT count(DISTINCT stream_name)::int AS contacts, count(*)::int AS events FROM idem_events WHERE stream_name LIKE 'contact-crm.d%'`,
    );
    expect(rows[0]).toEqual({ contacts: PAGES * PAGE_SIZE, events: PAGES * PAGE_SIZE });
  });
});
