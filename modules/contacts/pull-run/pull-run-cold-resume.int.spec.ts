/**
 * A long pull run resumed by a process that never loaded it (a starting worker, `idem sync resume`)
 * reads about a page of the run's stream, not the whole of it (one event per record: a run of 1,000,000
 * records is a million events), and ends as an uninterrupted run of the same source does: stopped
 * between pages, killed between a page's imports and its recording, and killed between the appends that
 * record one page (its first records recorded, the rest not).
 */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { freshProcess, listSource, wholeFold } from '../../../test/harness/cold-run';
import { createTestDatabase } from '../../../test/harness/test-database';
import { importStream } from '../contact.events';
import type { ImportRunState } from '../import-run.state';
import { driveRun, type RunDriverDeps } from './drive-run';
import { startRun } from './start-run';

const metadata = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };
const RECORDS = 6000;
const PAGE_SIZE = 200;
/** What a resumed driver may read of its run: about a page (and one event per page it appends, to link it). */
const RESUME_READ_BOUND = 3 * PAGE_SIZE;

/**
 * 6,000 records for 1,500 contacts: each sent again with a higher version, now and then an older one
 * (stale), a re-send of the same version (unchanged), and a record without a key (rejected).
 */
const records = Array.from({ length: RECORDS }, (_, i) => {
  if (i % 97 === 5) return { sourceId: '', fields: {} };
  const contact = i % 1500;
  const version = i % 50 === 7 ? 1 : 1 + Math.floor(i / 1500);
  return { sourceId: `cold-${contact}`, version, fields: { v: version } };
});
const source = listSource(records, PAGE_SIZE);

async function openDb(label: string) {
  const pool = new Pool({ connectionString: await createTestDatabase(label), max: 4 });
  const store = new PostgresEventStore(pool);
  await store.migrate();
  return { pool, store };
}
type Db = Awaited<ReturnType<typeof openDb>>;

let uninterrupted: ImportRunState;
let uninterruptedContacts: unknown;
let whole: Db;
beforeAll(async () => {
  whole = await openDb('cold_resume_whole');
  const runId = await startRun(whole.store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
  uninterrupted = await driveRun({ store: whole.store, sources: () => source, pageSize: PAGE_SIZE, metadata }, runId);
  uninterruptedContacts = await contacts(whole);
}, 120_000);
afterAll(() => whole.pool.end());

/** Each contact's last event (without the run that wrote it), and how many contact events there are. */
async function contacts(db: Db) {
  const { rows } = await db.pool.query(
    `SELECT DISTINCT ON (stream_name) stream_name, event_type, data::jsonb - 'runId' AS data FROM idem_events WHERE stream_name LIKE 'contact-crm.%' ORDER BY stream_name, revision DESC`,
  );
  const revisions = await db.pool.query(`SELECT count(*)::int AS n FROM idem_events WHERE stream_name LIKE 'contact-crm.%'`);
  return { contacts: rows, revisions: revisions.rows[0].n as number };
}

/** `store` as a driver sees it when its process dies inside the appends recording page `page`: the first lands. */
function killedInsidePage(store: EventStore, page: number): EventStore {
  let pages = 0;
  let chunks = 0;
  return Object.create(store, {
    // Chunks of about 60 records: a page's events go in several appends (appendLinkedInChunks).
    maxAppendBytes: { value: 40_000 },
    append: {
      value: async (...args: Parameters<EventStore['append']>) => {
        const [stream, events] = args;
        if (!stream.startsWith('import-')) return store.append(...args);
        if (events[0]?.type === 'ImportRecordProcessed' && (events[0].data as { seq: number }).seq % PAGE_SIZE === 0) {
          pages++;
          chunks = 0;
        }
        if (pages === page && ++chunks === 2) throw new Error('killed');
        return store.append(...args);
      },
    },
  }) as EventStore;
}

describe('a long pull run resumed by a process that never loaded it', () => {
  it.each([
    ['stopped between pages', 0, (deps: RunDriverDeps, runId: string) => stopAfterPages(deps, runId, 17)],
    [
      'killed between a page’s imports and its recording',
      0,
      (deps: RunDriverDeps, runId: string) =>
        expectKilled(
          {
            ...deps,
            beforeRecordingPage: async (run) => {
              if (run.pages === 18) throw new Error('killed');
            },
          },
          runId,
        ),
    ],
    [
      'killed between the appends recording one page',
      expect.any(Number),
      (deps: RunDriverDeps, runId: string) => expectKilled({ ...deps, store: killedInsidePage(deps.store, 19) }, runId),
    ],
  ])(
    '%s: reads about a page of the run and ends as an uninterrupted run',
    async (label, recordedInPage, interrupt) => {
      const db = await openDb(`cold_resume_${label.slice(0, 6).replace(/\W/g, '_')}`);
      try {
        const runId = await startRun(db.store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
        await interrupt({ store: db.store, sources: () => source, pageSize: PAGE_SIZE, metadata }, runId);
        const stopped = await wholeFold(db.pool, runId);
        expect(stopped).toMatchObject({ status: 'running', recordedInPage });
        if (recordedInPage !== 0) expect(stopped.recordedInPage).toBeGreaterThan(0);
        expect(stopped.revision).toBeGreaterThan(3000);

        const resuming = freshProcess(db.pool);
        const resumed = await driveRun({ store: resuming.store, sources: () => source, pageSize: PAGE_SIZE, metadata }, runId);

        expect(resuming.read(importStream(runId))).toBeLessThanOrEqual(RESUME_READ_BOUND);
        expect(resumed).toEqual(await wholeFold(db.pool, runId));
        expect(resumed).toMatchObject({
          status: 'completed',
          processed: RECORDS,
          pages: RECORDS / PAGE_SIZE,
          counts: uninterrupted.counts,
        });
        expect(await contacts(db)).toEqual(uninterruptedContacts);
      } finally {
        await db.pool.end();
      }
    },
    120_000,
  );
});

async function stopAfterPages(deps: RunDriverDeps, runId: string, pages: number): Promise<void> {
  const stopping = new AbortController();
  await driveRun({ ...deps, signal: stopping.signal, onPage: (run) => run.pages >= pages && stopping.abort() }, runId);
}

async function expectKilled(deps: RunDriverDeps, runId: string): Promise<void> {
  await expect(driveRun(deps, runId)).rejects.toThrow('killed');
}
