/**
 * Support search stays a handful of index probes however many jobs there are: over 20,000 jobs and
 * the 40,000 payment ids their orders name, with fresh statistics, the plan of each search reads no table with a sequential scan.
 */
import { DataSource, type Logger } from 'typeorm';
import { createProjectionDatabase, type ProjectionDatabase } from '../../test/projections/projection-harness';
import { installReadModels } from '../../src/subscriptions/read-models/versions';
import { OrderPaymentIdRow } from '../order-payment-ids/order-payment-ids.entity';
import { orderPaymentIdsReadModel } from '../order-payment-ids/order-payment-ids.projector';
import { SupportJobRow } from './support-jobs.entity';
import { supportJobsReadModel } from './support-jobs.projector';
import { SupportJobQueries } from './support-jobs.queries';

const JOBS = 20_000;
let db: ProjectionDatabase;
let dataSource: DataSource;
const statements: Array<{ sql: string; parameters: unknown[] }> = [];

/** Keeps each SELECT TypeORM sends, with its parameters, to ask PostgreSQL for its plan afterwards. */
const recordSelects: Logger = {
  logQuery: (sql, parameters) => {
    if (sql.startsWith('SELECT')) statements.push({ sql, parameters: (parameters as unknown[] | undefined) ?? [] });
  },
  logQueryError: () => undefined,
  logQuerySlow: () => undefined,
  logSchemaBuild: () => undefined,
  logMigration: () => undefined,
  log: () => undefined,
};

beforeAll(async () => {
  db = await createProjectionDatabase('support_search_plan');
  await installReadModels(db.pool, [supportJobsReadModel, orderPaymentIdsReadModel]);
  await db.pool.query(
    `INSERT INTO support_jobs_v1 (job_id, kind, order_id, customer_id, request_id, external_reference, status, attempts, updated_at, revision)
     SELECT 'charge-order:o-' || g, 'charge-order', 'o-' || g, 'c-' || (g % 5000), 'req-' || g, 'ch_' || g, 'done', 1, now(), 2
     FROM generate_series(1, $1::int) g`,
    [JOBS],
  );
  await db.pool.query(
    `INSERT INTO order_payment_ids_v1 (payment_id, order_id, named_by, revision, recorded_at)
     SELECT prefix || g, 'o-' || g, 'ChargeSucceeded', 2, now() FROM generate_series(1, $1::int) g, unnest(ARRAY['pi_', 'ch_']) prefix`,
    [JOBS],
  );
  await db.pool.query('ANALYZE support_jobs_v1; ANALYZE order_payment_ids_v1');
  dataSource = new DataSource({
    type: 'postgres',
    url: db.url,
    entities: [SupportJobRow, OrderPaymentIdRow],
    logger: recordSelects,
    logging: true,
  });
  await dataSource.initialize();
});
afterAll(async () => {
  await dataSource?.destroy();
  await db?.close();
});

function scannedTables(plan: Record<string, unknown>): string[] {
  const children = (plan.Plans as Array<Record<string, unknown>> | undefined) ?? [];
  const here = plan['Node Type'] === 'Seq Scan' ? [String(plan['Relation Name'])] : [];
  return [...here, ...children.flatMap(scannedTables)];
}

describe('SupportJobQueries: search, its count and its next page, with the orders an intent id names', () => {
  it.each([
    ['an order id', 'o-4242'],
    ['a customer id', 'c-42'],
    ['a charge id', 'ch_4242'],
    ['an intent id', 'pi_4242'],
    ['a request id', 'req-4242'],
    ['an id it does not know', 'nothing-like-it'],
  ])('finds by %s without scanning a table', async (_what, q) => {
    statements.length = 0;
    const jobs = new SupportJobQueries(dataSource);
    const alsoOrders = await jobs.ordersNamingPayment(q);
    const found = await jobs.search(q, alsoOrders);
    expect(found.length).toBe(q === 'nothing-like-it' ? 0 : q.startsWith('c-') ? 4 : 1);
    expect(await jobs.countMatching(q, alsoOrders)).toBe(found.length);
    // The next page's query too: it starts after the first job found.
    if (found[0]) await jobs.search(q, alsoOrders, { after: found[0], limit: 50 });
    expect(statements.length).toBeGreaterThan(0);
    for (const { sql, parameters } of statements) {
      const { rows } = await db.pool.query(`EXPLAIN (FORMAT JSON) ${sql}`, parameters);
      expect({ sql, scanned: scannedTables(rows[0]['QUERY PLAN'][0].Plan) }).toEqual({ sql, scanned: [] });
    }
  });
});
