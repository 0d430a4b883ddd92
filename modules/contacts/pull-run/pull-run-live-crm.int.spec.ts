/**
 * A pull run against a sandbox CRM that behaves like a live one (our own fake, in-process on a free
 * port): contacts are edited and deleted between the pages of the export (mutatePerPage,
 * deletesPerPage), the pages come in a seeded non-sequential order (outOfOrderPages), and each page
 * also carries an older version of the contact before its block (outOfOrder). The run completes, its
 * counts equal the import_events rows, and no contact is left older than the freshest version the run
 * was served (invariant 5: a late, older record never overwrites a fresher one). A second run, the CRM
 * holding still, brings every contact to the CRM's current version.
 */
import { Pool } from 'pg';
import { contactsReadModel } from '../../../projections/contacts/contacts.projector';
import { importEventsReadModel } from '../../../projections/import-events/import-events.projector';
import { runReadModelMigrations } from '../../../src/database/data-source';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres.event-store';
import { readModelProjection } from '../../../src/subscriptions/read-models/read-model.projection';
import { startProjections } from '../../../src/subscriptions/start-projections';
import { createTestDatabase } from '../../../test/harness/test-database';
import { waitUntilCaughtUp } from '../../../test/projections/projection-harness';
import { createSandbox, type Sandbox } from '../../sandbox';
import type { ContactSource, PageRequest } from '../contact-source/contact-source.port';
import { SandboxCrmContactSource } from '../contact-source/sandbox-crm.contact-source';
import { driveRun, type RunDriverDeps } from './drive-run';
import { startRun } from './start-run';

const SIZE = 1200;
const PAGE = 100;

interface Served {
  sourceId: string;
  version: number;
  deleted?: boolean;
}

let pool: Pool;
let store: PostgresEventStore;
let sandbox: Sandbox;
let deps: RunDriverDeps;
/** Every page the CRM handed the run, in order, and all their records. */
let pages: Served[][] = [];
let served: Served[] = [];

beforeAll(async () => {
  const url = await createTestDatabase('contacts_pull_live');
  pool = new Pool({ connectionString: url, max: 6 });
  store = new PostgresEventStore(pool);
  await store.migrate();
  await runReadModelMigrations(url);
  sandbox = await createSandbox({ crm: { seed: 21, size: SIZE } });
  const crm = new SandboxCrmContactSource('crm', sandbox.url, 10_000);
  const recording: ContactSource = {
    name: 'crm',
    fetchPage: async (request: PageRequest) => {
      const page = await crm.fetchPage(request);
      pages.push(page.records as Served[]);
      served.push(...(page.records as Served[]));
      return page;
    },
  };
  deps = {
    store,
    sources: (name) => (name === 'crm' ? recording : undefined),
    pageSize: PAGE,
    backoffMs: 5,
    metadata: { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } },
  };
});
afterAll(async () => {
  await sandbox.close();
  await pool.end();
});

async function control(path: string, body: unknown): Promise<{ touched?: string[] }> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { touched?: string[] };
}

async function pull() {
  served = [];
  pages = [];
  const runId = await startRun(store, { source: 'crm', startedBy: 'test', kind: 'pull' }, deps.metadata);
  return driveRun(deps, runId);
}

async function projected() {
  const running = await startProjections({ store, pool, readModels: [contactsReadModel, importEventsReadModel], reactors: [] });
  try {
    await waitUntilCaughtUp(store, pool, [readModelProjection(contactsReadModel), readModelProjection(importEventsReadModel)], 60_000);
  } finally {
    await running.stop();
  }
  const rows = await pool.query<{ source_id: string; version: number }>(
    `SELECT source_id, version::int FROM contacts WHERE source = 'crm'`,
  );
  return new Map(rows.rows.map((r) => [r.source_id, r.version]));
}

async function auditCounts(runId: string) {
  const { rows } = await pool.query(`SELECT outcome, count(*)::int AS n FROM import_events WHERE run_id = $1 GROUP BY outcome`, [runId]);
  return Object.fromEntries(rows.map((r: { outcome: string; n: number }) => [r.outcome, r.n]));
}

/** Per contact, the freshest record among those given. */
function freshest(records: Served[]): Map<string, Served> {
  const latest = new Map<string, Served>();
  for (const r of records) if ((latest.get(r.sourceId)?.version ?? 0) < r.version) latest.set(r.sourceId, r);
  return latest;
}

/** What the CRM holds now, read in one calm in-order export past the run's source. */
async function crmNow(): Promise<Served[]> {
  const all: Served[] = [];
  let cursor: string | null = null;
  do {
    const response = await fetch(`${sandbox.url}/crm/contacts?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
    const page = (await response.json()) as { contacts: Served[]; nextCursor: string | null };
    all.push(...page.contacts);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return all;
}

it('completes over a live CRM serving its pages out of order, overwrites nothing with an older version, and a second run catches up', async () => {
  // Many contacts past their first version, so that the older versions the pages carry exist.
  await control('/crm/_control/mutate', { count: SIZE });
  await control('/crm/_control/behaviour', { mutatePerPage: 40, deletesPerPage: 3, outOfOrderPages: true, outOfOrder: true });

  const first = await pull();
  expect(first).toMatchObject({ status: 'completed', pages: SIZE / PAGE, processed: served.length });
  // The pages came out of order: some page's contacts are older (a lower index) than the page's before.
  const starts = pages.map((page) => Number(page[0].sourceId.slice(1)));
  expect(starts.length).toBe(SIZE / PAGE);
  expect(starts.some((start, p) => p > 0 && start < starts[p - 1])).toBe(true);
  expect(new Set(served.map((r) => r.sourceId)).size).toBe(SIZE);
  // Older versions were served after fresher ones and skipped, not applied.
  expect(first.counts.skipped_stale ?? 0).toBeGreaterThan(0);

  const afterFirst = await projected();
  expect(await auditCounts(first.runId)).toEqual(first.counts);
  for (const [sourceId, record] of freshest(served)) {
    if (record.deleted) expect(afterFirst.has(sourceId)).toBe(false);
    else expect([sourceId, afterFirst.get(sourceId)]).toEqual([sourceId, record.version]);
  }
  expect(afterFirst.size).toBe([...freshest(served).values()].filter((r) => !r.deleted).length);

  // The CRM holds still now; its pages still come out of order.
  await control('/crm/_control/behaviour', { outOfOrderPages: true });
  const second = await pull();
  expect(second).toMatchObject({ status: 'completed', pages: SIZE / PAGE, processed: SIZE });
  const afterSecond = await projected();
  expect(await auditCounts(second.runId)).toEqual(second.counts);
  const now = await crmNow();
  expect(now.length).toBe(SIZE);
  for (const contact of now) {
    if (contact.deleted) expect(afterSecond.has(contact.sourceId)).toBe(false);
    else expect([contact.sourceId, afterSecond.get(contact.sourceId)]).toEqual([contact.sourceId, contact.version]);
  }
  expect(second.counts.updated! + (second.counts.deleted ?? 0)).toBeGreaterThan(0);
}, 180_000);
