/**
 * A filtered page (a subscription that lags, readAll with a filter) walks the global order and stops
 * at the page's end, however many matching events lie beyond it. Planned on the filter's default
 * estimate, PostgreSQL read every settled event after the checkpoint and sorted them for each page
 * (read-all.query.ts, `unestimated`): a subscriber 12,000 events behind paid 12,000 rows per page.
 */
import { Pool } from 'pg';
import { testEvents } from '../../../test/contracts/test-events';
import { waitUntilSettled } from '../../../test/harness/settled-history';
import { createTestDatabase } from '../../../test/harness/test-database';
import type { EventFilter } from '../event-store.port';
import { PostgresEventStore } from './postgres.event-store';
import { readAllQuery } from './read-all.query';

let pool: Pool;
let store: PostgresEventStore;

beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('filtered_read_plan'), max: 4 });
  store = new PostgresEventStore(pool);
  await store.migrate();
});
afterAll(() => pool.end());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  Plans?: PlanNode[];
}

/** Rows each node that read idem_events produced, summed over the plan. */
function rowsReadFromEvents(node: PlanNode): number {
  const own = node['Relation Name'] === 'idem_events' ? node['Actual Rows'] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsReadFromEvents(child), 0);
}

beforeAll(async () => {
  // No ANALYZE: a young table's events arrive faster than autovacuum analyzes them, as in a push.
  for (let i = 0; i < 20; i++) await store.append(`planread-${i}`, testEvents(500), 'no_stream');
  await waitUntilSettled(pool); // readAll sees settled history only; other test files share the cluster
});

/** Rows the plan of one 100-event page with `filter` read from idem_events. */
async function rowsReadForPage(filter: EventFilter): Promise<number> {
  const page = readAllQuery({ filter, maxCount: 100 });
  const { rows } = await pool.query({ text: `EXPLAIN (ANALYZE, FORMAT JSON) ${page.text}`, values: page.values });
  return rowsReadFromEvents((rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0].Plan);
}

it('reads one page of a long matching backlog without reading the backlog', async () => {
  expect((await store.readAll({ filter: { streamCategories: ['planread'] }, maxCount: 100 })).length).toBe(100);
  // 10,000 events match; the page needs 100 of them.
  expect(await rowsReadForPage({ streamCategories: ['planread'], eventTypes: ['SomethingHappened'] })).toBeLessThanOrEqual(100);
});

it('reads one page of the backlog without reading the backlog when the filter has alternatives', async () => {
  const filter = { anyOf: [{ streamCategories: ['planread'], eventTypes: ['SomethingHappened'] }, { streamCategories: ['planelse'] }] };
  expect((await store.readAll({ filter, maxCount: 100 })).length).toBe(100);
  expect(await rowsReadForPage(filter)).toBeLessThanOrEqual(100);
});
